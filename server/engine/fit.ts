/**
 * Regularized logistic regression, enough to fit the risk score's weights: Newton's method on
 * the log-likelihood with an L2 penalty pulling each weight toward a prior (zero for the
 * shipped defaults; the defaults themselves for a merchant's own fit, so a few labels move
 * them a little). Deterministic: the same rows in the same order give the same weights.
 * Intercepts (one per event type) are not penalized. Pure; never on the request path.
 */

export type Example = {
  /** The event type: which intercept applies. */
  group: string;
  /** Signal values by key (absent: 0). */
  x: Readonly<Record<string, number>>;
  /** 1: attack (fraud), 0: ordinary (legitimate). */
  y: 0 | 1;
  /** How much this example counts (default 1). */
  weight?: number;
};

export type Fitted = {
  intercepts: Record<string, number>;
  weights: Record<string, number>;
  iterations: number;
};

export type FitOptions = {
  /** The signal keys to fit, in order (others in the rows are ignored). */
  keys: readonly string[];
  /** L2 strength: the penalty is lambda/2 · Σ (w − prior)². */
  lambda: number;
  prior?: { intercepts?: Record<string, number>; weights?: Record<string, number> };
  /** Intercepts' own (weak) pull toward the prior, so a group of one class stays finite. */
  interceptLambda?: number;
  maxIterations?: number;
  tolerance?: number;
};

export function fitLogistic(rows: readonly Example[], options: FitOptions): Fitted {
  const {
    keys,
    lambda,
    prior = {},
    interceptLambda = 1e-3,
    maxIterations = 50,
    tolerance = 1e-8,
  } = options;
  const groups = [...new Set(rows.map((r) => r.group))].sort();
  const g = groups.length;
  const n = g + keys.length;
  const column = new Map<string, number>(keys.map((k, i) => [k, g + i]));
  const groupColumn = new Map<string, number>(groups.map((name, i) => [name, i]));
  const priorVec = [
    ...groups.map((name) => prior.intercepts?.[name] ?? 0),
    ...keys.map((k) => prior.weights?.[k] ?? 0),
  ];
  const penalty = priorVec.map((_, i) => (i < g ? interceptLambda : lambda));
  // Sparse rows: [column, value] pairs, the group's column first.
  const sparse = rows.map((row) => {
    const cols = [groupColumn.get(row.group) ?? 0];
    const vals = [1];
    for (const key of keys) {
      const v = row.x[key];
      if (v) {
        cols.push(column.get(key) ?? 0);
        vals.push(v);
      }
    }
    return { cols, vals, y: row.y, w: row.weight ?? 1 };
  });
  /** The penalized negative log-likelihood at `b` (what each step must lower). */
  const loss = (b: readonly number[]): number => {
    let total = 0;
    for (const [i, v] of b.entries()) total += (at(penalty, i) / 2) * (v - at(priorVec, i)) ** 2;
    for (const { cols, vals, y, w } of sparse) {
      let z = 0;
      for (const [k, col] of cols.entries()) z += at(b, col) * at(vals, k);
      // log(1 + e^z) − y·z, computed without overflow.
      total += w * ((z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - y * z);
    }
    return total;
  };
  let beta = [...priorVec];
  let current = loss(beta);
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations += 1;
    const grad = beta.map((b, i) => at(penalty, i) * (b - at(priorVec, i)));
    const hess = new Matrix(n);
    for (let i = 0; i < n; i++) hess.add(i, i, at(penalty, i));
    for (const { cols, vals, y, w } of sparse) {
      let z = 0;
      for (const [k, col] of cols.entries()) z += at(beta, col) * at(vals, k);
      const p = 1 / (1 + Math.exp(-z));
      const r = w * (p - y);
      const s = w * Math.max(p * (1 - p), 1e-12);
      for (const [i, a] of cols.entries()) {
        grad[a] = at(grad, a) + r * at(vals, i);
        for (const [j, b] of cols.entries()) hess.add(a, b, s * at(vals, i) * at(vals, j));
      }
    }
    const step = hess.solve(grad);
    // Newton's step, halved until the loss goes down (far from the optimum a full step overshoots).
    let scale = 1;
    let next = beta.map((b, i) => b - at(step, i));
    let nextLoss = loss(next);
    while (nextLoss > current && scale > 1e-6) {
      scale /= 2;
      next = beta.map((b, i) => b - scale * at(step, i));
      nextLoss = loss(next);
    }
    const change = Math.max(...next.map((v, i) => Math.abs(v - at(beta, i))));
    beta = next;
    current = Math.min(current, nextLoss);
    if (change < tolerance) break;
  }
  return {
    intercepts: Object.fromEntries(groups.map((name, i) => [name, at(beta, i)])),
    weights: Object.fromEntries(keys.map((k, i) => [k, at(beta, g + i)])),
    iterations,
  };
}

function at(values: ArrayLike<number>, i: number): number {
  return values[i] ?? 0;
}

/** A dense square matrix, enough for a few dozen weights. */
class Matrix {
  readonly cells: Float64Array;
  constructor(readonly n: number) {
    this.cells = new Float64Array(n * n);
  }
  get(i: number, j: number): number {
    return at(this.cells, i * this.n + j);
  }
  add(i: number, j: number, v: number): void {
    this.cells[i * this.n + j] = this.get(i, j) + v;
  }

  /** Solves A·x = b for a symmetric positive-definite A (Cholesky). */
  solve(b: readonly number[]): number[] {
    const n = this.n;
    const l = new Matrix(n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j <= i; j++) {
        let sum = this.get(i, j);
        for (let k = 0; k < j; k++) sum -= l.get(i, k) * l.get(j, k);
        l.add(i, j, i === j ? Math.sqrt(Math.max(sum, 1e-12)) : sum / l.get(j, j));
      }
    }
    const y: number[] = [];
    for (let i = 0; i < n; i++) {
      let sum = at(b, i);
      for (let k = 0; k < i; k++) sum -= l.get(i, k) * at(y, k);
      y[i] = sum / l.get(i, i);
    }
    const x: number[] = new Array(n).fill(0);
    for (let i = n - 1; i >= 0; i--) {
      let sum = at(y, i);
      for (let k = i + 1; k < n; k++) sum -= l.get(k, i) * at(x, k);
      x[i] = sum / l.get(i, i);
    }
    return x;
  }
}
