// Diff of two API reports (tests/api/sNN.json) and the one-line violation format: the one place that computes it
// (the constitution rules, the docs checks, npm run diff and the web reader all call these).
import type { ApiReport } from "../course.ts";

export type Change = { key: string; from: string; to: string | null }; // to = null: removed
export type ReportDiff = { added: string[]; removed: Change[]; changed: Change[] };

/** Keys only in `next`, keys gone from `next`, keys whose text differs. Key order is the report's (sorted). */
export function diffReports(prev: ApiReport, next: ApiReport): ReportDiff {
  const diff: ReportDiff = { added: [], removed: [], changed: [] };
  for (const [key, from] of Object.entries(prev)) {
    const to = next[key];
    if (to === undefined) diff.removed.push({ key, from, to: null });
    else if (to !== from) diff.changed.push({ key, from, to });
  }
  for (const key of Object.keys(next)) if (!(key in prev)) diff.added.push(key);
  return diff;
}

/** `s05 → s06 R1: ProviderInput.tools removed` / `s02 → s03 R1: Provider.complete changed: (…) → (…)`. */
export function formatViolation(prev: string, next: string, rule: string, change: Change, note = ""): string {
  const what = change.to === null ? "removed" : `changed: ${change.from} → ${change.to}`;
  return `${prev} → ${next} ${rule}: ${change.key} ${what}${note ? ` ${note}` : ""}`;
}

/** `: "a" | "b"` → {prefix ": ", literals}; null when the text is not a union of ≥ 2 string literals. */
function literalUnion(text: string): { prefix: string; literals: string[] } | null {
  const m = /^((?:readonly )?\??: )?(.*)$/.exec(text);
  const literals = (m?.[2] ?? "").split(" | ");
  if (literals.length < 2 || !literals.every((l) => /^"[^"]*"$/.test(l))) return null;
  return { prefix: m?.[1] ?? "", literals };
}

/** The constitution's "union 只增": a literal union may gain members, never lose one. */
export function isLiteralUnionGrowth(from: string, to: string): boolean {
  const a = literalUnion(from);
  const b = literalUnion(to);
  return a !== null && b !== null && a.prefix === b.prefix && a.literals.every((l) => b.literals.includes(l));
}

/** Breaking changes of one step: removed or changed keys (tag keys aside), minus literal unions that only grew. */
export function breakingChanges(prev: ApiReport, next: ApiReport): Change[] {
  const { removed, changed } = diffReports(prev, next);
  return [...removed, ...changed].filter((c) => !c.key.includes("@") && !(c.to !== null && isLiteralUnionGrowth(c.from, c.to)));
}
