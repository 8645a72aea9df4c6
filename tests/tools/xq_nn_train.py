"""Train the xiangqi network on positions from tests/tools/xq_nn_data.py and write its weights (ucci_engine/data/xiangqi-nn.txt).

    pip install .[train]   # numpy, for training only: the engine reads the weights with the standard library
    OPENBLAS_NUM_THREADS=1 nice -n 19 python3 tests/tools/xq_nn_train.py ~/.cache/sanqi-data/xq/games.jsonl --out /tmp/xiangqi-nn.txt

The network learns what the hand-made evaluation misses: its output is added to the hand-made score, and
``sigmoid((hand + net) / S)`` is fitted to a blend of the labeller's score (as a win chance) and the
game's result. Positions in check or whose best move captures are left out (a static evaluation cannot
see what a search settles there). Each time a position is drawn it is drawn as it is, mirrored left to
right, with the colours swapped (the board turned round), or both, one of the four at random, so the net
learns the game's symmetries. The games whose id ends in 0 (a tenth, whole games) are held out; the error of
the hand-made evaluation alone and with the net, float and quantized, is printed on them.

Millions of lines: the positions are read once into compact arrays (piece-square indices, hand-made score,
labeller's score, result, game) kept in ``DATA.features.npz``; a later run reads only the lines added to
DATA since, so training can follow a generator that is still running.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np

from ucci_engine.evaluate import NN_ACTIVE, NN_OUT_SCALE, lines_in_units, parse_network, weighed_lines
from ucci_engine.position import Position
from ucci_engine.tables import SQUARES

PAD = 16 * SQUARES  # the feature index of an empty slot (its weights stay 0)
SLOTS = 32
HELD_OUT = 10  # games whose id is 0 modulo this are held out


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def symmetry_tables() -> tuple[np.ndarray, np.ndarray]:
    """Feature index maps: mirrored left to right, and turned round with the colours swapped (the same
    position for the other side). PAD maps to itself."""
    mirror = np.arange(PAD + 1)
    turn = np.arange(PAD + 1)
    for code in range(16):
        for sq in range(SQUARES):
            i = code * SQUARES + sq
            mirror[i] = code * SQUARES + (sq // 9) * 9 + 8 - sq % 9
            turn[i] = (code ^ 8) * SQUARES + SQUARES - 1 - sq
    return mirror, turn


# The "kings" features (an experiment the engine does not read): each piece counts three times, on its
# own, beside the square of red's king in its palace (9 slots) and beside the square of black's king (its
# slot counted from black's side), so a piece's worth can depend on where each king stands.
KINGS_PAD = 19 * PAD
KINGS_SLOTS = 3 * SLOTS


def palace_slot(sq: np.ndarray) -> np.ndarray:
    """0-8 for a square of red's palace (rank by rank, files d-f)."""
    return (sq // 9) * 3 + sq % 9 - 3


def kings_features(feats: np.ndarray) -> np.ndarray:
    """The piece-square rows of ``feats`` (PAD for an empty slot) as "kings" rows."""
    f = feats.astype(np.int64)
    valid = f != PAD
    code, sq = f // SQUARES, f % SQUARES
    red_king = np.where(code == 1, sq, 0).sum(axis=1)
    black_king = np.where(code == 9, sq, 0).sum(axis=1)
    by_red = PAD + palace_slot(red_king)[:, None] * PAD + f
    by_black = 10 * PAD + palace_slot(SQUARES - 1 - black_king)[:, None] * PAD + f
    return np.concatenate([np.where(valid, f, KINGS_PAD), np.where(valid, by_red, KINGS_PAD),
                           np.where(valid, by_black, KINGS_PAD)], axis=1)


def kings_symmetry_tables() -> tuple[np.ndarray, np.ndarray]:
    mirror_psq, turn_psq = symmetry_tables()
    mirror = np.arange(KINGS_PAD + 1)
    turn = np.arange(KINGS_PAD + 1)
    i = np.arange(PAD)
    mirror[:PAD] = mirror_psq[:PAD]
    turn[:PAD] = turn_psq[:PAD]
    for slot in range(9):
        flipped = slot // 3 * 3 + 2 - slot % 3
        for king in (0, 1):  # red's block, black's block
            block = PAD + (9 * king + slot) * PAD
            mirror[block + i] = PAD + (9 * king + flipped) * PAD + mirror_psq[i]
            turn[block + i] = PAD + (9 * (1 - king) + slot) * PAD + turn_psq[i]
    return mirror, turn


def fit_scale(x: np.ndarray, y: np.ndarray) -> float:
    """The S of sigmoid(x / S) closest to y (squared error), on a grid."""
    best, best_err = 100.0, math.inf
    for s in range(20, 2001, 5):
        err = float(np.mean((sigmoid(x / s) - y) ** 2))
        if err < best_err:
            best, best_err = float(s), err
    return best


COLUMNS = ("feats", "hand", "cp", "result", "game")


def read(data: str, cache: str) -> dict[str, np.ndarray]:
    """The quiet positions of ``data`` as arrays, from ``cache`` plus the lines added to ``data`` since it was written."""
    arrays: dict[str, np.ndarray] = {}
    offset = lines = 0
    last = b""  # the last line read, which must still end at ``offset``
    if os.path.exists(cache):
        with np.load(cache) as z:
            arrays = {k: z[k] for k in COLUMNS}
            offset, lines, last = int(z["offset"]), int(z["lines"]), z["last"].tobytes()
        with open(data, "rb") as f:
            f.seek(max(offset - len(last), 0))
            if f.read(len(last)) != last:  # the data were cut (a generator's restart) or replaced: start again
                print(f"{cache} does not match {data}: reading it all again", file=sys.stderr)
                arrays, offset, lines = {}, 0, 0
    new: dict[str, list[object]] = {k: [] for k in COLUMNS}
    start = time.monotonic()
    with open(data, "rb") as f:
        f.seek(offset)
        for raw in f:
            if not raw.endswith(b"\n"):
                break  # a line still being written
            offset += len(raw)
            lines += 1
            last = raw
            r = json.loads(raw)
            if r["check"] or r["capture"]:
                continue
            pos = Position.from_fen(r["fen"])
            idx = [pos.board[sq] * SQUARES + sq for sq in range(SQUARES) if pos.board[sq]]
            new["feats"].append(idx + [PAD] * (SLOTS - len(idx)))
            new["hand"].append(pos.score + lines_in_units(weighed_lines(pos.board, pos.kings)))
            new["cp"].append(r["cp"])
            new["result"].append(r["result"])
            new["game"].append(r["game"])
    types = {"feats": np.int16, "hand": np.int32, "cp": np.int32, "result": np.float32, "game": np.int32}
    fresh = {k: np.array(new[k], types[k]).reshape((-1, SLOTS) if k == "feats" else (-1,)) for k in COLUMNS}
    added = len(fresh["cp"])
    arrays = {k: np.concatenate([arrays[k], fresh[k]]) if arrays else fresh[k] for k in COLUMNS}
    print(f"{data}: {lines} lines, {len(arrays['cp'])} quiet positions ({added} new, read in"
          f" {time.monotonic() - start:.0f} s)", file=sys.stderr)
    np.savez(cache + ".tmp.npz", offset=offset, lines=lines, last=np.frombuffer(last, np.uint8), **arrays)
    os.replace(cache + ".tmp.npz", cache)
    return arrays


def quantized_output(q1: np.ndarray, qb1: np.ndarray, q2: np.ndarray, qb2: int, x: np.ndarray) -> np.ndarray:
    """The net's output in units, computed as the engine computes it (evaluate.nn_output)."""
    acc = q1[x].sum(axis=1) + qb1
    return (np.clip(acc, 0, NN_ACTIVE) @ q2) // (NN_ACTIVE * NN_OUT_SCALE) + qb2


def weights_file(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """A weights file read by the engine's own reader, as arrays with a zero row for PAD."""
    with open(path, encoding="ascii") as f:
        net = parse_network(f.read())
    q1 = np.zeros((PAD + 1, net.hidden), np.int64)
    q1[:PAD] = np.array(list(net.first), np.int64).reshape(PAD, net.hidden)
    return q1, np.array(list(net.bias), np.int64), np.array(list(net.out), np.int64), int(net.out_bias)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data")
    p.add_argument("--out", help="where to write the weights (psq features only: the engine reads those)")
    p.add_argument("--compare", metavar="NET", help="also the held-out error of this weights file (as the engine reads it)")
    p.add_argument("--features", choices=("psq", "kings"), default="psq",
                   help="psq: a piece on a square (the engine's); kings: also beside each king's square (measured only)")
    p.add_argument("--cache", help="the arrays read from DATA (default: DATA.features.npz)")
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--blend", type=float, default=0.7, help="weight of the search score against the result")
    p.add_argument("--l2", type=float, default=1e-6)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rate", type=float, default=2e-3, help="Adam's step for the first layer (ten times it for the output)")
    a = p.parse_args(argv)

    d = read(a.data, a.cache or a.data + ".features.npz")
    held = d["game"] % HELD_OUT == 0
    tr, te = ~held, held
    n_tr, n_te = int(tr.sum()), int(te.sum())
    print(f"training on {n_tr} positions of {len(np.unique(d['game'][tr]))} games, holding out {n_te} of"
          f" {len(np.unique(d['game'][te]))}", file=sys.stderr)
    if n_tr == 0 or n_te == 0:
        raise SystemExit("too few games to train and hold some out")
    cp = d["cp"].astype(np.float64)
    res = d["result"].astype(np.float64)
    hand = d["hand"].astype(np.float64)
    k_fish = fit_scale(cp[tr], res[tr])
    target = a.blend * sigmoid(cp / k_fish) + (1 - a.blend) * res
    scale = fit_scale(hand[tr], target[tr])
    print(f"scales: the labeller's cp / {k_fish:.0f}, hand-made units / {scale:.0f}", file=sys.stderr)

    if a.features == "kings":
        pad, slots = KINGS_PAD, KINGS_SLOTS
        mirror, turn = kings_symmetry_tables()
        x_all = kings_features(d["feats"])
    else:
        pad, slots = PAD, SLOTS
        mirror, turn = symmetry_tables()
        x_all = d["feats"].astype(np.int64)
    x_tr, h_tr, t_tr = x_all[tr], hand[tr], target[tr]
    x_te, h_te, t_te = x_all[te], hand[te], target[te]
    # The four views of a position: feature map, and whether the colours are swapped.
    views = [(np.arange(pad + 1), False), (mirror, False), (turn, True), (turn[mirror], True)]

    rng = np.random.default_rng(a.seed)
    hid = a.hidden
    w1 = rng.normal(0, 0.05 * math.sqrt(SLOTS / slots), (pad + 1, hid))
    w1[pad] = 0
    b1 = np.full(hid, 0.5)
    w2 = rng.normal(0, 1.0, hid)  # small: the sum starts near the hand-made score
    b2 = np.zeros(1)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(q) for q in params]
    v = [np.zeros_like(q) for q in params]
    # Adam; the output weights are in units (tens), the first layer's in fractions of an activation.
    rates = [a.rate, a.rate, 10 * a.rate, 10 * a.rate]
    beta1, beta2, step = 0.9, 0.999, 0

    def net(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        acc = w1[x].sum(axis=1) + b1
        return acc, np.clip(acc, 0, 1) @ w2 + b2[0]

    def error(x: np.ndarray, h: np.ndarray, t: np.ndarray) -> float:
        total = 0.0
        for s in range(0, len(x), 8192):
            total += float(np.sum((sigmoid((h[s : s + 8192] + net(x[s : s + 8192])[1]) / scale) - t[s : s + 8192]) ** 2))
        return total / len(x)

    if a.compare:
        other = quantized_output(*weights_file(a.compare), d["feats"][te].astype(np.int64))
        print(f"held-out error with {a.compare}: {np.mean((sigmoid((h_te + other) / scale) - t_te) ** 2):.5f}",
              file=sys.stderr)
    hand_tr = float(np.mean((sigmoid(h_tr / scale) - t_tr) ** 2))
    hand_te = float(np.mean((sigmoid(h_te / scale) - t_te) ** 2))
    print(f"error of the hand-made evaluation alone: train {hand_tr:.5f} held out {hand_te:.5f}", file=sys.stderr)
    start = time.monotonic()
    for epoch in range(a.epochs):
        order = rng.permutation(n_tr)
        view = rng.integers(0, 4, n_tr)
        for s in range(0, n_tr, a.batch):
            b = order[s : s + a.batch]
            vb = view[s : s + a.batch]
            xb = x_tr[b]
            hb, tb = h_tr[b].copy(), t_tr[b].copy()
            for k, (table, swapped) in enumerate(views):
                if k:
                    sel = vb == k
                    xb[sel] = table[xb[sel]]
                    if swapped:
                        hb[sel] = -hb[sel]
                        tb[sel] = 1 - tb[sel]
            acc, out = net(xb)
            pred = sigmoid((hb + out) / scale)
            d_out = 2 * (pred - tb) * pred * (1 - pred) / scale / len(b)
            active = np.clip(acc, 0, 1)
            g_w2 = active.T @ d_out + a.l2 * w2
            g_b2 = np.array([d_out.sum()])
            d_acc = np.outer(d_out, w2) * ((acc > 0) & (acc < 1))
            g_b1 = d_acc.sum(axis=0)
            if pad == PAD:  # the first layer's gradient: the one-hot rows of the batch times d_acc, densely
                onehot = np.zeros((len(b), pad + 1))
                onehot[np.repeat(np.arange(len(b)), slots), xb.ravel()] = 1.0
                g_w1 = onehot.T @ d_acc + a.l2 * w1
            else:  # too many rows for that: summed row by row
                g_w1 = a.l2 * w1
                np.add.at(g_w1, xb.ravel(), np.repeat(d_acc, slots, axis=0))
            step += 1
            for q, g, mq, vq, rate in zip(params, (g_w1, g_b1, g_w2, g_b2), m, v, rates):
                mq *= beta1
                mq += (1 - beta1) * g
                vq *= beta2
                vq += (1 - beta2) * g * g
                q -= rate * (mq / (1 - beta1**step)) / (np.sqrt(vq / (1 - beta2**step)) + 1e-8)
            w1[pad] = 0
        print(f"epoch {epoch + 1}: held out {error(x_te, h_te, t_te):.5f} ({time.monotonic() - start:.0f} s)",
              file=sys.stderr, flush=True)
    err_tr, err_te = error(x_tr, h_tr, t_tr), error(x_te, h_te, t_te)
    print(f"with the net: train {err_tr:.5f} held out {err_te:.5f}", file=sys.stderr)

    if not a.out or a.features != "psq":
        return 0
    # Quantize as the engine computes: first layer and bias in NN_ACTIVE-ths of a full activation, the
    # output weights in NN_OUT_SCALE-ths of a unit.
    q1 = np.rint(w1 * NN_ACTIVE).astype(np.int64)
    qb1 = np.rint(b1 * NN_ACTIVE).astype(np.int64)
    q2 = np.rint(w2 * NN_OUT_SCALE).astype(np.int64)
    qb2 = round(float(b2[0]))
    out_q = quantized_output(q1, qb1, q2, qb2, x_te)
    err_q = float(np.mean((sigmoid((h_te + out_q) / scale) - t_te) ** 2))
    print(f"held-out error quantized: {err_q:.5f}; net output on held-out positions: mean |out| "
          f"{np.mean(np.abs(out_q)):.1f} units", file=sys.stderr)
    with open(a.out, "w", encoding="ascii") as f:
        f.write(f"# xiangqi network: tests/tools/xq_nn_train.py on {n_tr} positions ({n_te} held out),"
                f" blend {a.blend}, scale {scale:.0f}, {a.epochs} epochs; held-out error hand-made"
                f" {hand_te:.5f}, with the net {err_q:.5f}\n")
        f.write(f"hidden {hid}\n")
        f.write("bias " + " ".join(str(int(z)) for z in qb1) + "\n")
        f.write("out " + " ".join(str(int(z)) for z in q2) + "\n")
        f.write(f"outbias {qb2}\n")
        for code in list(range(1, 8)) + list(range(9, 16)):
            for sq in range(SQUARES):
                row = q1[code * SQUARES + sq]
                if row.any():
                    f.write(f"w {code} {sq} " + " ".join(str(int(z)) for z in row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
