"""Train the xiangqi network on positions from tests/tools/xq_nn_data.py and write ucci_engine/data/xiangqi-nn.txt.

    pip install .[train]   # numpy, for training only: the engine reads the weights with the standard library
    nice -n 19 python3 tests/tools/xq_nn_train.py /tmp/xq-nn.jsonl --out ucci_engine/data/xiangqi-nn.txt

The network learns what the hand-made evaluation misses: its output is added to the hand-made score, and
``sigmoid((hand + net) / S)`` is fitted to a blend of Fairy-Stockfish's score (as a win chance) and the
game's result. Positions in check or whose best move captures are left out (a static evaluation cannot
see what a search settles there). Every position also counts mirrored left to right and with the colours
swapped (the board turned round), so the net learns the game's symmetries. The last tenth of the
file (whole games, as the generator writes them in order) is held out; the error of the hand-made
evaluation alone and with the net, float and quantized, is printed on it.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np

from ucci_engine.evaluate import NN_ACTIVE, NN_OUT_SCALE, lines_in_units, weighed_lines
from ucci_engine.position import Position
from ucci_engine.tables import SQUARES

PAD = 16 * SQUARES  # the feature index of an empty slot (its weights stay 0)
SLOTS = 32


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def features(pos: Position) -> list[int]:
    idx = [pos.board[sq] * SQUARES + sq for sq in range(SQUARES) if pos.board[sq]]
    return idx + [PAD] * (SLOTS - len(idx))


def mirrored(idx: list[int]) -> list[int]:
    """Left to right."""
    out = []
    for i in idx:
        if i == PAD:
            out.append(i)
        else:
            code, sq = divmod(i, SQUARES)
            out.append(code * SQUARES + (sq // 9) * 9 + 8 - sq % 9)
    return out


def turned(idx: list[int]) -> list[int]:
    """The board turned round with the colours swapped: the same position for the other side."""
    return [i if i == PAD else (i // SQUARES ^ 8) * SQUARES + SQUARES - 1 - i % SQUARES for i in idx]


def fit_scale(x: np.ndarray, y: np.ndarray) -> float:
    """The S of sigmoid(x / S) closest to y (squared error), on a grid."""
    best, best_err = 100.0, math.inf
    for s in range(20, 2001, 5):
        err = float(np.mean((sigmoid(x / s) - y) ** 2))
        if err < best_err:
            best, best_err = float(s), err
    return best


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data")
    p.add_argument("--out", required=True)
    p.add_argument("--hidden", type=int, default=32)
    p.add_argument("--epochs", type=int, default=40)
    p.add_argument("--blend", type=float, default=0.7, help="weight of the search score against the result")
    p.add_argument("--l2", type=float, default=1e-5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rate", type=float, default=3e-3, help="Adam's step for the first layer (ten times it for the output)")
    a = p.parse_args()

    with open(a.data, encoding="utf-8") as f:
        records = [json.loads(line) for line in f if line.strip()]
    kept = [r for r in records if not r["check"] and not r["capture"]]
    feats, hand, cp, result = [], [], [], []
    for r in kept:
        pos = Position.from_fen(r["fen"])
        feats.append(features(pos))
        hand.append(pos.score + lines_in_units(weighed_lines(pos.board, pos.kings)))
        cp.append(r["cp"])
        result.append(r["result"])
    n = len(kept)
    split = n * 9 // 10
    print(f"{len(records)} positions, {n} quiet; training on {split}, holding out {n - split}", file=sys.stderr)
    cp_a, res_a, hand_a = np.array(cp, float), np.array(result, float), np.array(hand, float)
    k_fish = fit_scale(cp_a[:split], res_a[:split])
    target = a.blend * sigmoid(cp_a / k_fish) + (1 - a.blend) * res_a
    scale = fit_scale(hand_a[:split], target[:split])
    print(f"scales: Fairy-Stockfish cp / {k_fish:.0f}, hand-made units / {scale:.0f}", file=sys.stderr)

    # Training set with its symmetric copies.
    X, H, T = [], [], []
    for i in range(split):
        for idx, sign in ((feats[i], 1), (mirrored(feats[i]), 1), (turned(feats[i]), -1), (turned(mirrored(feats[i])), -1)):
            X.append(idx)
            H.append(sign * hand[i])
            T.append(target[i] if sign > 0 else 1 - target[i])
    x_tr, h_tr, t_tr = np.array(X, np.int64), np.array(H, float), np.array(T, float)
    x_te, h_te, t_te = np.array(feats[split:], np.int64), hand_a[split:], target[split:]

    rng = np.random.default_rng(a.seed)
    hid = a.hidden
    w1 = rng.normal(0, 0.05, (PAD + 1, hid))
    w1[PAD] = 0
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
        return float(np.mean((sigmoid((h + net(x)[1]) / scale) - t) ** 2))

    print(f"error of the hand-made evaluation alone: train {np.mean((sigmoid(h_tr / scale) - t_tr) ** 2):.5f}"
          f" held out {np.mean((sigmoid(h_te / scale) - t_te) ** 2):.5f}", file=sys.stderr)
    batch = 256
    for epoch in range(a.epochs):
        order = rng.permutation(len(x_tr))
        for start in range(0, len(order), batch):
            b = order[start : start + batch]
            xb, hb, tb = x_tr[b], h_tr[b], t_tr[b]
            acc, out = net(xb)
            pred = sigmoid((hb + out) / scale)
            d_out = 2 * (pred - tb) * pred * (1 - pred) / scale / len(b)
            active = np.clip(acc, 0, 1)
            g_w2 = active.T @ d_out + a.l2 * w2
            g_b2 = np.array([d_out.sum()])
            d_acc = np.outer(d_out, w2) * ((acc > 0) & (acc < 1))
            g_b1 = d_acc.sum(axis=0)
            g_w1 = np.zeros_like(w1)
            np.add.at(g_w1, xb, d_acc[:, None, :])
            g_w1 += a.l2 * w1
            step += 1
            for q, g, mq, vq, rate in zip(params, (g_w1, g_b1, g_w2, g_b2), m, v, rates):
                mq *= beta1
                mq += (1 - beta1) * g
                vq *= beta2
                vq += (1 - beta2) * g * g
                q -= rate * (mq / (1 - beta1**step)) / (np.sqrt(vq / (1 - beta2**step)) + 1e-8)
            w1[PAD] = 0
        if epoch % 5 == 4 or epoch == a.epochs - 1:
            print(f"epoch {epoch + 1}: train {error(x_tr, h_tr, t_tr):.5f} held out {error(x_te, h_te, t_te):.5f}", file=sys.stderr)

    # Quantize as the engine computes: first layer and bias in NN_ACTIVE-ths of a full activation, the
    # output weights in NN_OUT_SCALE-ths of a unit.
    q1 = np.rint(w1 * NN_ACTIVE).astype(np.int64)
    qb1 = np.rint(b1 * NN_ACTIVE).astype(np.int64)
    q2 = np.rint(w2 * NN_OUT_SCALE).astype(np.int64)
    qb2 = round(float(b2[0]))
    acc_q = q1[x_te].sum(axis=1) + qb1
    out_q = (np.clip(acc_q, 0, NN_ACTIVE) @ q2) // (NN_ACTIVE * NN_OUT_SCALE) + qb2
    err_q = float(np.mean((sigmoid((h_te + out_q) / scale) - t_te) ** 2))
    print(f"held-out error quantized: {err_q:.5f}; net output on held-out positions: mean |out| "
          f"{np.mean(np.abs(out_q)):.1f} units", file=sys.stderr)
    with open(a.out, "w", encoding="ascii") as f:
        f.write(f"# xiangqi network: tests/tools/xq_nn_train.py on {split} positions ({n - split} held out),"
                f" blend {a.blend}, scale {scale:.0f}; held-out error hand-made"
                f" {np.mean((sigmoid(h_te / scale) - t_te) ** 2):.5f}, with the net {err_q:.5f}\n")
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
