// 两份文本逐行比对（最长公共子序列），给出新文件里哪些行是新加的。
// 课文件不到一千行，O(n·m) 的表足够快，也最好读。

/** 一行差异：same 两边都有，add 只在新文件，del 只在旧文件。line 是它在各自文件里的行号（从 1 起）。 */
export type DiffLine = { kind: "same" | "add" | "del"; text: string; line: number };

export function diffLines(oldText: string, newText: string): DiffLine[] {
  const a = oldText.split("\n");
  const b = newText.split("\n");
  const width = b.length + 1;
  // lcs[i * width + j] = a[i..] 与 b[j..] 的最长公共子序列长度
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: "same", text: b[j], line: j + 1 });
      i++;
      j++;
    } else if (j < b.length && (i === a.length || lcs[i * width + j + 1] >= lcs[(i + 1) * width + j])) {
      out.push({ kind: "add", text: b[j], line: j + 1 });
      j++;
    } else {
      out.push({ kind: "del", text: a[i], line: i + 1 });
      i++;
    }
  }
  return out;
}

/** 新文件里新加的行号集合。 */
export function addedLineNumbers(oldText: string, newText: string): Set<number> {
  return new Set(diffLines(oldText, newText).filter((d) => d.kind === "add").map((d) => d.line));
}
