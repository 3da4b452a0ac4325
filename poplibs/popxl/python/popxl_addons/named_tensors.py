"""DotTree and its kinds: ordered trees of named leaves (tensors, factories) with dotted keys."""


class DotTree:
    """Keys are identifiers or non-negative integers; "a.b" reaches into nested trees."""

    def __init__(self):
        object.__setattr__(self, "_map", {})

    def insert(self, key, value, overwrite=False):
        head, _, rest = str(key).partition(".")
        if rest:
            child = self._map.get(head)
            if child is None:
                child = type(self)()
                self._map[head] = child
            child.insert(rest, value, overwrite)
            return
        if head in self._map and not overwrite:
            raise ValueError(f"{type(self).__name__}: key '{head}' already exists")
        self._map[head] = value

    def update(self, other):
        for k, v in other.to_dict().items():
            self.insert(k, v, overwrite=True)

    def __getattr__(self, name):
        try:
            return self._map[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getitem__(self, key):
        if isinstance(key, int):
            key = str(key if key >= 0 else max(int(k) for k in self._map if k.isdigit()))
        head, _, rest = str(key).partition(".")
        value = self._map[head]
        return value[rest] if rest else value

    def __contains__(self, key):
        try:
            self[key]
            return True
        except KeyError:
            return False

    def keys(self):
        return list(self._map.keys())

    def values(self):
        return list(self._map.values())

    def to_dict(self):
        """Flat {"a.b": leaf}."""
        out = {}
        for k, v in self._map.items():
            if isinstance(v, DotTree):
                for kk, vv in v.to_dict().items():
                    out[f"{k}.{kk}"] = vv
            else:
                out[k] = v
        return out

    def keys_flat(self):
        return list(self.to_dict().keys())

    def values_flat(self):
        return list(self.to_dict().values())

    @classmethod
    def from_dict(cls, d):
        tree = cls()
        for k, v in d.items():
            tree.insert(k, v)
        return tree

    def unpack(self):
        items = sorted(self.to_dict().items())
        return [k for k, _ in items], [v for _, v in items]

    def to_mapping(self, other):
        """{self's leaf: other's leaf} for the keys both trees have."""
        mine, theirs = self.to_dict(), other.to_dict()
        return {v: theirs[k] for k, v in mine.items() if k in theirs}

    def __len__(self):
        return len(self.to_dict())

    def __repr__(self):
        return f"{type(self).__name__}({self.to_dict()})"


class NamedTensors(DotTree):
    @property
    def tensors(self):
        """The tensors, sorted by tensor name."""
        return tuple(sorted(self.values_flat(), key=lambda t: t.name))

    @property
    def named_tensors(self):
        return self.to_dict()

    def remap(self, mapping):
        return NamedTensors.from_dict({k: mapping[v] for k, v in self.to_dict().items()})


class NamedTensorData(DotTree):
    pass
