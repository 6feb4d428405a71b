// 两份 API 报告（tests/api/sNN.json）的差异，和一行违规的写法：只在这里算（宪法规则、文档检查、npm run diff 和网页阅读器都调这里）。
import type { ApiReport } from "../course.ts";

export type Change = { key: string; from: string; to: string | null }; // to = null：删掉了
export type ReportDiff = { added: string[]; removed: Change[]; changed: Change[] };

/** 只在 `next` 里的键、`next` 里没了的键、文字变了的键。键的先后和报告里一样（排好序的）。 */
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

/** `s05 → s06 R1: ProviderInput.tools removed`、`s02 → s03 R1: Provider.complete changed: (…) → (…)` 这样的一行。 */
export function formatViolation(prev: string, next: string, rule: string, change: Change, note = ""): string {
  const what = change.to === null ? "removed" : `changed: ${change.from} → ${change.to}`;
  return `${prev} → ${next} ${rule}: ${change.key} ${what}${note ? ` ${note}` : ""}`;
}

/** `: "a" | "b"` → {prefix ": ", literals}；文字不是两个以上字符串字面量的联合时回 null。 */
function literalUnion(text: string): { prefix: string; literals: string[] } | null {
  const m = /^((?:readonly )?\??: )?(.*)$/.exec(text);
  const literals = (m?.[2] ?? "").split(" | ");
  if (literals.length < 2 || !literals.every((l) => /^"[^"]*"$/.test(l))) return null;
  return { prefix: m?.[1] ?? "", literals };
}

/** 宪法说的「union 只增」：字面量联合可以多成员，不能少。 */
export function isLiteralUnionGrowth(from: string, to: string): boolean {
  const a = literalUnion(from);
  const b = literalUnion(to);
  return a !== null && b !== null && a.prefix === b.prefix && a.literals.every((l) => b.literals.includes(l));
}

/** 一步里破坏兼容的改动：删掉或改了的键（标签键除外），只变大了的字面量联合不算。 */
export function breakingChanges(prev: ApiReport, next: ApiReport): Change[] {
  const { removed, changed } = diffReports(prev, next);
  return [...removed, ...changed].filter((c) => !c.key.includes("@") && !(c.to !== null && isLiteralUnionGrowth(c.from, c.to)));
}
