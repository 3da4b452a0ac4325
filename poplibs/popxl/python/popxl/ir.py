"""popxl.Ir: the intermediate representation a Session compiles."""
from . import _popxl
from .graph import Graph


class Ir:
    def __init__(self, replication=1):
        self._pb = _popxl.Ir()
        if replication != 1:
            raise ValueError(
                f"popxl.Ir: replication {replication} is not supported yet (only 1)")
        self._main = Graph(self, self._pb.main_graph)

    @property
    def main_graph(self):
        return self._main

    @property
    def num_host_transfers(self):
        return self._pb.num_host_transfers

    @num_host_transfers.setter
    def num_host_transfers(self, value):
        if value < 1:
            raise ValueError(f"popxl.Ir.num_host_transfers must be at least 1, got {value}")
        self._pb.num_host_transfers = value

    @property
    def replication_factor(self):
        return self._pb.replication_factor

    def create_empty_graph(self, name="graph"):
        return Graph(self, self._pb.create_graph(name))
