"""poptorch.DataLoader: a torch DataLoader whose batches hold one executor call's worth of samples
(micro-batch × deviceIterations × replicas / input group × gradientAccumulation)."""
import warnings

import torch

from . import enums
from ._errors import Error
from .options import Options


class DataLoader(torch.utils.data.DataLoader):
    def __init__(self, options, dataset, batch_size=1, shuffle=None, num_workers=0, drop_last=True,
                 persistent_workers=None, auto_distributed_partitioning=True,
                 mode=enums.DataLoaderMode.Sync, async_options=None, rebatched_worker_size=None,
                 batch_sampler=None, **kwargs):
        if not isinstance(options, Options):
            raise Error(f"poptorch.DataLoader: options must be a poptorch.Options, got "
                        f"{type(options).__name__}")
        options._freeze()
        self._options = options
        o = options
        self._combined_batch_size = (batch_size * o.device_iterations *
                                     (o.replication_factor // o.input_group_size) *
                                     o.Training.gradient_accumulation)
        if not drop_last and len(dataset) % self._combined_batch_size:
            warnings.warn("poptorch.DataLoader: drop_last=False: the last batch will be smaller "
                          "than the others, and a compiled model cannot take it")
        if persistent_workers is None:
            persistent_workers = num_workers > 0
        if batch_sampler is not None:
            super().__init__(dataset, batch_sampler=batch_sampler, num_workers=num_workers,
                             persistent_workers=persistent_workers, **kwargs)
        else:
            super().__init__(dataset, batch_size=self._combined_batch_size,
                             shuffle=bool(shuffle), num_workers=num_workers, drop_last=drop_last,
                             persistent_workers=persistent_workers, **kwargs)

    @property
    def combinedBatchSize(self):
        return self._combined_batch_size

    @property
    def options(self):
        return self._options

    def terminate(self):
        """Stops an asynchronous worker; loading is synchronous here, so nothing to stop."""


class AsynchronousDataAccessor:
    """Iterates the wrapped loader; loading happens in the caller's thread here."""

    def __init__(self, dataset, buffer_size=3, miss_sleep_time_in_ms=0.1, load_indefinitely=True,
                 early_preload=False, sharing_strategy=enums.SharingStrategy.ForkServer,
                 rebatched_size=None):
        self._dataset = dataset

    def __iter__(self):
        return iter(self._dataset)

    def __len__(self):
        return len(self._dataset)

    def terminate(self):
        pass
