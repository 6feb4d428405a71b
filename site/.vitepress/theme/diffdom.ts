// 浏览器里把课页「差异」标签的合并视图换成并排视图：从合并视图的元素读回差异的行，再用 site/lib/diffview.ts 排成两栏。
// 不多传一份 HTML：并排视图用的就是页面里已有的那些行。合并视图的行不带行号（CSS 计数器数的），这里照样数一遍。
import { type BareRow, type DiffRow, numberRows } from "../../lib/diffview";

/** 从合并视图的 HTML 元素读回差异的行（浏览器里把课页的合并视图换成并排视图用）。 */
export function rowsFromUnified(inner: Element): DiffRow[] {
  const rows: BareRow[] = [];
  for (const el of Array.from(inner.children)) {
    if (el.classList.contains("lp-gap")) {
      rows.push({ kind: "gap", count: Number(/\d+/.exec(el.textContent ?? "")?.[0] ?? 0) });
      continue;
    }
    const kind = el.classList.contains("a") ? "add" : el.classList.contains("d") ? "del" : "same";
    rows.push({ kind, html: el.innerHTML });
  }
  return numberRows(rows);
}
