// 两份文本逐行比对，给出新文件里哪些行是新加的。比对交给 diff 包（jsdiff，Pi 自己用的也是它）的 diffArrays：
// 按行切开后逐行比较，不做任何行尾处理，所以拆出来的行原样拼得回两边（tests/linediff.test.ts）。

import { diffArrays } from "diff";

/** 一行差异：same 两边都有，add 只在新文件，del 只在旧文件。line 是它在各自文件里的行号（从 1 起）。 */
export type DiffLine = { kind: "same" | "add" | "del"; text: string; line: number };

export function diffLines(oldText: string, newText: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldLine = 0;
  let newLine = 0;
  for (const change of diffArrays(oldText.split("\n"), newText.split("\n"))) {
    for (const text of change.value) {
      if (change.added) out.push({ kind: "add", text, line: ++newLine });
      else if (change.removed) out.push({ kind: "del", text, line: ++oldLine });
      else {
        oldLine++;
        out.push({ kind: "same", text, line: ++newLine });
      }
    }
  }
  return out;
}

/** 新文件里新加的行号集合。 */
export function addedLineNumbers(oldText: string, newText: string): Set<number> {
  return new Set(diffLines(oldText, newText).filter((d) => d.kind === "add").map((d) => d.line));
}
