"""poptorch's exception types (PopTorch's names): every backend or API-misuse error is an Error."""


class Error(Exception):
    """A PopTorch error; `message`, `type` (its category) and `location` as PopTorch gives them."""

    def __init__(self, message, type="poptorch_py_error", location=""):  # noqa: A002 (PopTorch's name)
        super().__init__(message)
        self.message = message
        self.type = type
        self.location = location


class RecoverableError(Error):
    """A transient runtime fault; never raised by the simulated IPU, kept for source compatibility."""
    recovery_action = "FULL_RESET"


class UnrecoverableError(Error):
    """A persistent runtime fault; never raised by the simulated IPU, kept for source compatibility."""
