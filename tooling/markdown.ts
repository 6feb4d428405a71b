// The Markdown syntax tree every README check reads (mdast-util-from-markdown with GFM, the Markdown GitHub renders):
// headings, tables and their cells, inline code, links, fenced blocks and plain prose are distinct nodes, so no check
// scans Markdown by hand. "Prose" = the text of paragraphs, headings and table cells outside inline code (markup dropped,
// backslash escapes undone); a "line" is a source line of such a paragraph, heading or cell.
import type { Heading, Nodes, Paragraph, PhrasingContent, Root, RootContent, TableCell, TableRow } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { toString } from "mdast-util-to-string";
import { gfm } from "micromark-extension-gfm";

/** A Markdown text as GFM syntax tree. */
export function parseMarkdown(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

/** What the title block (everything before the first H2: H1, motto, Pi 边界) is called in messages. */
export const HEAD = "开头";

export interface Section {
  name: string;
  line: number;
  nodes: RootContent[];
}

export interface ParsedReadme {
  lines: string[];
  /** Nodes before the first H2 (the title block). */
  head: RootContent[];
  sections: Section[];
}

export const lineOf = (node: Nodes): number => node.position?.start.line ?? 0;
const parsed = new Map<string, ParsedReadme>();

/** The README as GFM syntax tree, grouped by H2 sections (cached: every check reads the same text). */
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

/** The H2 section called `name`, if the README has one. */
export function findSection(readme: string, name: string): Section | undefined {
  return parseReadme(readme).sections.find((s) => s.name === name);
}

/** Calls `fn` on `nodes` and every node below them, in document order. */
export function walk(nodes: readonly Nodes[], fn: (node: Nodes) => void): void {
  for (const n of nodes) {
    fn(n);
    if ("children" in n) walk(n.children, fn);
  }
}

export type Container = Paragraph | Heading | TableCell;

/** Paragraphs, headings and table cells under `nodes` (inside lists, quotes and tables too), in order. */
export function containers(nodes: readonly Nodes[]): Container[] {
  const out: Container[] = [];
  walk(nodes, (n) => {
    if (n.type === "paragraph" || n.type === "heading" || n.type === "tableCell") out.push(n);
  });
  return out;
}

/** One piece of a line: prose (markup dropped, escapes undone) or an inline code span; `link` is the link URL it sits in. */
export interface Piece {
  code: boolean;
  value: string;
  link?: string;
}

/** A source line of a paragraph, heading or table cell. */
export interface InlineLine {
  line: number;
  pieces: Piece[];
}

/** A paragraph, heading or table cell as source lines of prose and inline code (`<code>x</code>` is code too). */
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

/** Every line of every paragraph, heading and table cell under `nodes`. */
export function linesOf(nodes: readonly Nodes[]): InlineLine[] {
  return containers(nodes).flatMap(inlineLines);
}

export const lineText = (l: InlineLine): string => l.pieces.map((p) => p.value).join("");

/** The title block (named HEAD) and each H2 section, in order. */
export function partsOf(doc: ParsedReadme): Section[] {
  return [{ name: HEAD, line: 1, nodes: doc.head }, ...doc.sections];
}

/** The table rows under `nodes` (header rows too). */
export function tableRows(nodes: readonly Nodes[]): TableRow[] {
  const rows: TableRow[] = [];
  walk(nodes, (n) => {
    if (n.type === "tableRow") rows.push(n);
  });
  return rows;
}
