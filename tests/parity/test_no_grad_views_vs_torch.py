"""A view made under `no_grad` of a tensor that requires grad, against real PyTorch: it still
requires grad (and is a leaf), no gradient reaches it, and changing it (or a view of it) in
place with grad mode on raises PyTorch's "A view was created in no_grad mode ..." error, while
the same change under no_grad is allowed. Skipped without PyTorch."""
from __future__ import annotations

import minigrad as mg


def _attempt(change) -> str:
    try:
        change()
        return "ok"
    except RuntimeError as error:
        return str(error)


def _behaviour(lib) -> list:
    seen = []
    w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.no_grad():
        v, reshaped, element, unsqueezed = w[:2], w.reshape(3), w[0], w.unsqueeze(0)
        detached = w.detach()
        h = w * 1
        hv = h[1:]  # a view of a non-leaf
        c = lib.ones(3)
        cv = c[:2]  # a view of a tensor that needs no grad
    seen.append([(t.requires_grad, t.is_leaf, t.grad_fn)
                 for t in (v, reshaped, element, unsqueezed, detached, hv, cv)])
    seen.append(_attempt(lambda: v.add_(1)))
    seen.append(_attempt(lambda: v.zero_()))
    seen.append(_attempt(lambda: v.copy_(lib.ones(2))))
    seen.append(_attempt(lambda: v.__setitem__(0, 5.0)))
    seen.append(_attempt(lambda: v.__setitem__(slice(0, 1), 5.0)))
    seen.append(_attempt(lambda: reshaped.mul_(2)))
    seen.append(_attempt(lambda: hv.mul_(2)))
    v2 = v[0:1]  # a view of the view, made with grad mode on
    seen.append((v2.requires_grad, v2.grad_fn.name() if v2.grad_fn else None))
    seen.append(_attempt(lambda: v2.add_(1)))
    seen.append(_attempt(lambda: cv.add_(1)))
    m = v * 2
    seen.append((m.requires_grad, [node for node, _ in m.grad_fn.next_functions]))
    m.sum().backward()
    seen.append((w.grad, v.grad))  # the gradient reaches neither
    with lib.no_grad():
        v.mul_(2)  # both inside no_grad: allowed, and not recorded
    seen.append((repr(w), w._version))
    return seen


def test_no_grad_views_match(torch):
    ours = _behaviour(mg)
    assert ours == _behaviour(torch)
    assert ours[1].startswith("A view was created in no_grad mode")


def _used_after_a_change(lib) -> list:
    """A view made under no_grad, used in a recorded operation after its values changed in
    place: refused whether the change was made to the base, to the view itself or to another
    view, under no_grad or not (a training step's `w -= lr * w.grad` included); allowed while
    nothing changed, and for a view of it made with grad mode on."""
    def view_then(change, view=lambda w: w[:2], leaf=False):
        w = lib.ones(3, 2, requires_grad=True)
        w = w if leaf else w.clone()
        with lib.no_grad():
            v = view(w)
        change(w, v)
        return _attempt(lambda: v * 2)

    def under_no_grad(fn):
        def change(w, v):
            with lib.no_grad():
                fn(w, v)
        return change

    return [
        view_then(lambda w, v: None),
        view_then(lambda w, v: w.mul_(2)),
        view_then(lambda w, v: w[2:].mul_(2)),  # another view's change
        view_then(under_no_grad(lambda w, v: w.mul_(2))),
        view_then(under_no_grad(lambda w, v: v.mul_(2))),
        view_then(under_no_grad(lambda w, v: w.sub_(0.1)), view=lambda w: w.t(), leaf=True),
        view_then(lambda w, v: w.mul_(2), view=lambda w: w.t()),
        view_then(lambda w, v: None, view=lambda w: w.t()[0]),
    ]


def test_a_no_grad_view_changed_in_place_is_refused_as_in_pytorch(torch):
    ours = _used_after_a_change(mg)
    assert ours == _used_after_a_change(torch)
    assert ours[0] == "ok" and ours[1].startswith("A view was created in no_grad mode")


def _told_not_to_require_grad(lib) -> list:
    """A view made under no_grad keeps requiring grad while its base does, whatever its own
    flag says: PyTorch reads the base's flag too, and follows it when it is turned off."""
    w = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with lib.no_grad():
        v = w[:2]
    seen = [v.requires_grad_(False).requires_grad]
    v.requires_grad = False
    seen.append(v.requires_grad)
    m = v * 2  # still recorded, with no edge to v
    seen.append((m.requires_grad, [node for node, _ in m.grad_fn.next_functions]))
    with lib.no_grad():
        c = lib.ones(3)[:2]  # a view of a tensor that needs no grad: the flag alone decides
    seen.append((c.requires_grad_(True).requires_grad, c.requires_grad_(False).requires_grad))
    w.requires_grad_(False)  # the base turned off: the view follows, and may change in place
    seen.append((v.requires_grad, (v * 2).requires_grad, _attempt(lambda: v.add_(1))))
    return seen


def test_a_no_grad_view_told_not_to_require_grad_still_does(torch):
    assert _told_not_to_require_grad(mg) == _told_not_to_require_grad(torch)


def _base_requires_grad_later(lib) -> list:
    """A view made before its base requires grad (under no_grad, or with grad mode on but
    nothing to record) requires grad once the base does, as PyTorch's views read their base's
    flag: an operation on it is recorded, with no edge to it (no gradient reaches it or the
    base); a view made under no_grad then refuses in-place changes with grad mode on, and
    refuses to be used once its values changed in place; one made with grad mode on refuses
    as a view of a leaf. A flag set on the view itself gives it its own AccumulateGrad."""
    def made(no_grad):
        base = lib.ones(4)
        if no_grad:
            with lib.no_grad():
                views = base[:2], base.view(2, 2), base[1:][:2]
        else:
            views = base[:2], base.view(2, 2), base[1:][:2]
        base.requires_grad_(True)
        return base, views

    seen = []
    for no_grad in (True, False):
        base, (sliced, reshaped, twice) = made(no_grad)
        seen.append([(t.requires_grad, t.is_leaf, t.grad_fn, repr(t))
                     for t in (sliced, reshaped, twice)])
        m = sliced * 2
        seen.append((m.requires_grad, m.is_leaf, m.grad_fn.name(),
                     [node for node, _ in m.grad_fn.next_functions]))
        seen.append(_attempt(lambda: (reshaped.exp().sum() + (twice * 3).sum()).backward()))
        seen.append((repr(base.grad), _attempt(lambda: sliced.numpy())))
        seen.append([_attempt(change) for change in (
            lambda: sliced.add_(1), lambda: reshaped.zero_(), lambda: twice.copy_(lib.zeros(2)),
            lambda: sliced.__setitem__(0, 5.0))])
    base, (sliced, reshaped, twice) = made(True)
    with lib.no_grad():
        base.mul_(2)
    seen.append([_attempt(lambda: t * 2) for t in (sliced, reshaped, twice)])
    base, (sliced, _, _) = made(True)
    sliced.requires_grad_(True)
    m = sliced * 2
    seen.append([type(node).__name__ for node, _ in m.grad_fn.next_functions])
    m.sum().backward()
    seen.append((repr(sliced.grad), repr(base.grad)))
    unchanged = lib.ones(3)
    with lib.no_grad():
        view = unchanged[:2]
    unchanged.add_(1)  # changed while nothing requires grad: used later without complaint
    seen.append(_attempt(lambda: view * lib.ones(2, requires_grad=True)))
    outside = lib.ones(3, requires_grad=True)
    with lib.inference_mode():  # views made in inference mode: of inference tensors, and not
        views = lib.ones(3)[:2], lib.ones(3, requires_grad=True)[:2], outside[:2]
    seen.append([(v.is_inference(), v.requires_grad) for v in views])
    return seen


def test_a_view_follows_its_base_that_requires_grad_later(torch):
    ours = _base_requires_grad_later(mg)
    assert ours == _base_requires_grad_later(torch)
    assert ours[0][0][0] is True  # the view made under no_grad requires grad now
