"""Fashion-MNIST through torchvision's MNIST-format loader, from Debian's dataset-fashion-mnist:
the compressed files are unpacked once where torchvision looks for them (no download)."""
import gzip
import os
import shutil

import torch
import torchvision

DEBIAN_DATA = "/usr/share/datasets/fashion-mnist"


def fashion_mnist(root, train, transform, limit=None):
    raw = os.path.join(root, "FashionMNIST", "raw")
    os.makedirs(raw, exist_ok=True)
    for name in os.listdir(DEBIAN_DATA):
        target = os.path.join(raw, name[:-3])
        if name.endswith(".gz") and not os.path.exists(target):
            with gzip.open(os.path.join(DEBIAN_DATA, name)) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
    dataset = torchvision.datasets.FashionMNIST(root, train=train, transform=transform,
                                                download=False)
    if limit is not None:
        dataset = torch.utils.data.Subset(dataset, range(min(limit, len(dataset))))
    return dataset
