"""addons.ops: cross-entropy with its gradient."""
import popxl.ops as ops


def cross_entropy(x, labels, ignore_index=None, reduction="mean"):
    loss, _ = cross_entropy_with_grad(x, labels, 1, ignore_index, reduction)
    return loss


def cross_entropy_with_grad(x, labels, loss_scaling=1, ignore_index=None, reduction="mean"):
    """softmax then the negative log-likelihood: (loss, d loss / d x scaled by loss_scaling)."""
    probs = ops.softmax(x, axis=-1)
    return ops.nll_loss_with_softmax_grad(probs, labels, loss_grad=loss_scaling,
                                          ignore_index=ignore_index, reduction=reduction)
