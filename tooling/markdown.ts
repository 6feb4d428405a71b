// 每条 README 检查读的 Markdown 语法树（mdast-util-from-markdown 加 GFM，也就是 GitHub 渲染的那种 Markdown）：标题、表格和
// 单元格、行内代码、链接、代码块和普通正文各是各的节点，没有哪条检查自己去扫 Markdown。「正文」是段落、标题和单元格里
// 行内代码以外的文字（去掉标记、还原反斜杠转义）；「一行」是这样一段、一个标题或一格在源文件里的一行。
import type { Heading, Nodes, Paragraph, PhrasingContent, Root, RootContent, TableCell, TableRow } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { toString } from "mdast-util-to-string";
import { gfm } from "micromark-extension-gfm";

/** 一段 Markdown 文字的 GFM 语法树。 */
export function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** 报错里怎么称呼开头那一块（第一个二级标题之前的一切：一级标题、格言、Pi 边界）。 */
export const HEAD = "开头";

export interface Section {
  name: string;
  line: number;
  nodes: RootContent[];
}

export interface ParsedReadme {
  lines: string[];
  /** 第一个二级标题之前的节点（开头那一块）。 */
  head: RootContent[];
  sections: Section[];
}

export const lineOf = (node: Nodes): number => node.position?.start.line ?? 0;
const parsed = new Map<string, ParsedReadme>();

/** README 的 GFM 语法树，按二级标题分节（有缓存：每条检查读的是同一段文字）。 */
export function parseReadme(text: string): ParsedReadme {
  const hit = parsed.get(text);
  if (hit) return hit;
  const root = parseMarkdown(text);
  const doc: ParsedReadme = { lines: text.replace(/\r\n?/g, "\n").split("\n"), head: [], sections: [] };
  for (const node of root.children) {
    if (node.type === "heading" && node.depth === 2) doc.sections.push({ name: toString(node).trim(), line: lineOf(node), nodes: [] });
    else (doc.sections.at(-1)?.nodes ?? doc.head).push(node);
  }
  parsed.set(text, doc);
  return doc;
}

/** 叫 `name` 的那个二级标题小节，README 里有的话。 */
export function findSection(readme: string, name: string): Section | undefined {
  return parseReadme(readme).sections.find((s) => s.name === name);
}

/** 按文档里的先后，对 `nodes` 和它们下面的每个节点调 `fn`。 */
export function walk(nodes: readonly Nodes[], fn: (node: Nodes) => void): void {
  for (const n of nodes) {
    fn(n);
    if ("children" in n) walk(n.children, fn);
  }
}

export type Container = Paragraph | Heading | TableCell;

/** `nodes` 下面的段落、标题和单元格（列表、引用和表格里的也算），按先后。 */
export function containers(nodes: readonly Nodes[]): Container[] {
  const out: Container[] = [];
  walk(nodes, (n) => {
    if (n.type === "paragraph" || n.type === "heading" || n.type === "tableCell") out.push(n);
  });
  return out;
}

/** 一行里的一段：正文（去掉标记、还原转义）或一段行内代码；`link` 是它所在链接的地址。 */
export interface Piece {
  code: boolean;
  value: string;
  link?: string;
}

/** 段落、标题或单元格在源文件里的一行。 */
export interface InlineLine {
  line: number;
  pieces: Piece[];
}

/** 一段、一个标题或一格，拆成源文件的一行行正文和行内代码（`<code>x</code>` 也算代码）。 */
export function inlineLines(node: Container): InlineLine[] {
  let cur: InlineLine = { line: lineOf(node), pieces: [] };
  const out = [cur];
  let htmlCode = false;
  const push = (p: Piece): void => {
    const last = cur.pieces.at(-1);
    if (last && !last.code && !p.code && last.link === p.link) last.value += p.value;
    else cur.pieces.push(p);
  };
  const visit = (children: readonly PhrasingContent[], link: string | undefined): void => {
    for (const c of children) {
      if (c.type === "text") {
        c.value.split("\n").forEach((part, i) => {
          if (i > 0) out.push((cur = { line: lineOf(c) + i, pieces: [] }));
          if (part !== "") push({ code: htmlCode, value: part, link });
        });
      } else if (c.type === "inlineCode") push({ code: true, value: c.value, link });
      else if (c.type === "break") out.push((cur = { line: c.position?.end.line ?? cur.line + 1, pieces: [] }));
      else if (c.type === "html") htmlCode = /^<code>$/i.test(c.value.trim()) || (htmlCode && !/^<\/code>$/i.test(c.value.trim()));
      else if (c.type === "link") visit(c.children, c.url);
      else if ("children" in c) visit(c.children, link);
    }
  };
  visit(node.children, undefined);
  return out;
}

/** `nodes` 下面每一段、每个标题、每一格的每一行。 */
export function linesOf(nodes: readonly Nodes[]): InlineLine[] {
  return containers(nodes).flatMap(inlineLines);
}

export const lineText = (l: InlineLine): string => l.pieces.map((p) => p.value).join("");

/** 开头那一块（名字是 HEAD）和每个二级标题小节，按先后。 */
export function partsOf(doc: ParsedReadme): Section[] {
  return [{ name: HEAD, line: 1, nodes: doc.head }, ...doc.sections];
}

/** `nodes` 下面的表格行（表头行也算）。 */
export function tableRows(nodes: readonly Nodes[]): TableRow[] {
  const rows: TableRow[] = [];
  walk(nodes, (n) => {
    if (n.type === "tableRow") rows.push(n);
  });
  return rows;
}
