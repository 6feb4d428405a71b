// 两份代码的逐行差异，做成 HTML：合并视图（和 git diff 一样一列）和并排视图（左旧右新）。
// 课页的「差异」标签在构建时用它生成合并视图；并排视图和「比较任意两课」的页面在浏览器里用它现算，
// 所以这里只引用纯函数（行差异、转义），不碰 node: 模块。
// 行号不写成文字，由 CSS 显示，复制代码时也不会带上行号。合并视图（课页里传的那一份）连数字都不写：CSS 计数器 o、n
// 一行一行数（没变的行两边都加一，删掉的只加旧的，加上的只加新的，「⋯ 没变的 N 行」两边各加 N）；
// 并排视图是浏览器里现排的，行号写在 data-o（旧文件）/ data-n（新文件）里。
import { type DiffLine, diffLines } from "../../tooling/linediff.ts";
import { escapeHtml, escapeText, wrapIndent } from "./html.ts";

/** 每处改动前后留几行没变的。 */
export const DIFF_CONTEXT = 3;

export type DiffRow =
  | { kind: "same" | "add" | "del"; old: number | undefined; new: number | undefined; html: string }
  | { kind: "gap"; count: number };

export type DiffStats = { added: number; removed: number };

/**
 * git 和 GitHub 的习惯：同一处改动（两段没变的行之间）先列删掉的行，再列加上的行。
 * 最长公共子序列回溯时删和加可能交错，这里只在每处改动内部重排，哪些行算删、算加不变。
 */
export function gitOrder(lines: DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  let dels: DiffLine[] = [];
  let adds: DiffLine[] = [];
  const flush = (): void => {
    out.push(...dels, ...adds);
    dels = [];
    adds = [];
  };
  for (const d of lines) {
    if (d.kind === "same") {
      flush();
      out.push(d);
    } else if (d.kind === "del") dels.push(d);
    else adds.push(d);
  }
  flush();
  return out;
}

/** 差异的行：改动和它前后 context 行，其余没变的行并成一个「⋯ 没变的 N 行」。 */
export function diffRows(oldCode: string, newCode: string, oldHtml: string[], newHtml: string[], context = DIFF_CONTEXT): { rows: DiffRow[]; stats: DiffStats } {
  const lines = gitOrder(diffLines(oldCode, newCode));
  const changed = lines.map((d) => d.kind !== "same");
  const near = new Array<boolean>(lines.length).fill(false);
  changed.forEach((c, i) => {
    if (!c) return;
    for (let k = Math.max(0, i - context); k <= Math.min(lines.length - 1, i + context); k++) near[k] = true;
  });
  const rows: DiffRow[] = [];
  let oldNo = 0;
  let newNo = 0;
  let skipped = 0;
  lines.forEach((d, i) => {
    if (d.kind !== "add") oldNo++;
    if (d.kind !== "del") newNo++;
    if (!near[i]) {
      skipped++;
      return;
    }
    if (skipped > 0) rows.push({ kind: "gap", count: skipped });
    skipped = 0;
    rows.push({
      kind: d.kind,
      old: d.kind === "add" ? undefined : oldNo,
      new: d.kind === "del" ? undefined : newNo,
      html: d.kind === "del" ? (oldHtml[oldNo - 1] ?? escapeText(d.text)) : (newHtml[newNo - 1] ?? escapeText(d.text)),
    });
  });
  if (skipped > 0) rows.push({ kind: "gap", count: skipped });
  return { rows, stats: { added: lines.filter((d) => d.kind === "add").length, removed: lines.filter((d) => d.kind === "del").length } };
}

const CLASS = { same: "s", add: "a", del: "d" } as const;
const gapText = (count: number): string => `⋯ 没变的 ${count} 行`;
const gapHtml = (count: number): string => `<div class=lp-gap>${gapText(count)}</div>`;
const attr = (name: string, n: number | undefined): string => (n === undefined ? "" : ` ${name}=${n}`);

/** 合并视图：一列，删掉的行红、加上的行绿。行号由 CSS 计数器数（跳过的那段让两个计数器各加 N）；长行带缩进，宽屏上折行。 */
export function unifiedHtml(rows: DiffRow[]): string {
  const body = rows
    .map((r) =>
      r.kind === "gap" ? `<div class=lp-gap style="counter-increment:o ${r.count} n ${r.count}">${gapText(r.count)}</div>` : `<div class=${CLASS[r.kind]}${wrapIndent(r.html)}>${r.html}</div>`,
    )
    .join("");
  return `<div class="lp-code lp-diff" data-view="unified"><div class="lp-code-inner">${body}</div></div>`;
}

/** 合并视图里读回来的一行：种类和 HTML（跳过的那段是行数）。 */
export type BareRow = { kind: "same" | "add" | "del"; html: string } | { kind: "gap"; count: number };

/** 合并视图的行不写行号：从头数一遍，得出每行在旧文件、新文件里的行号（和 CSS 计数器数的一样）。 */
export function numberRows(rows: readonly BareRow[]): DiffRow[] {
  let oldNo = 0;
  let newNo = 0;
  return rows.map((r): DiffRow => {
    if (r.kind === "gap") {
      oldNo += r.count;
      newNo += r.count;
      return r;
    }
    if (r.kind !== "add") oldNo++;
    if (r.kind !== "del") newNo++;
    return { kind: r.kind, old: r.kind === "add" ? undefined : oldNo, new: r.kind === "del" ? undefined : newNo, html: r.html };
  });
}

/**
 * 并排视图：左边旧文件、右边新文件，两栏各自横向滚动，行对齐（每行一样高，缺的一边放一个空行）。
 * 一处改动里删掉的第 k 行和加上的第 k 行并排放。
 */
export function splitHtml(rows: DiffRow[]): string {
  const left: string[] = [];
  const right: string[] = [];
  const empty = "<div class=e></div>";
  let dels: DiffRow[] = [];
  let adds: DiffRow[] = [];
  const flush = (): void => {
    for (let k = 0; k < Math.max(dels.length, adds.length); k++) {
      const d = dels[k];
      const a = adds[k];
      left.push(d !== undefined && d.kind !== "gap" ? `<div class=d${attr("data-o", d.old)}>${d.html}</div>` : empty);
      right.push(a !== undefined && a.kind !== "gap" ? `<div class=a${attr("data-n", a.new)}>${a.html}</div>` : empty);
    }
    dels = [];
    adds = [];
  };
  for (const r of rows) {
    if (r.kind === "del") dels.push(r);
    else if (r.kind === "add") adds.push(r);
    else {
      flush();
      if (r.kind === "gap") {
        left.push(gapHtml(r.count));
        right.push(gapHtml(r.count));
      } else {
        left.push(`<div class=s${attr("data-o", r.old)}>${r.html}</div>`);
        right.push(`<div class=s${attr("data-n", r.new)}>${r.html}</div>`);
      }
    }
  }
  flush();
  const side = (name: string, label: string, body: string[]): string =>
    `<div class="lp-code lp-diff lp-side lp-side-${name}" aria-label="${label}"><div class="lp-code-inner">${body.join("")}</div></div>`;
  return `<div class="lp-split" data-view="split">${side("old", "旧", left)}${side("new", "新", right)}</div>`;
}
