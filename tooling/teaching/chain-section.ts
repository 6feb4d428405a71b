// 根 README「一轮对话的完整链路」这一节，在 Markdown 语法树上读（tooling/markdown.ts）：节本身、步骤表、链路图，
// 还有图前的导语和表后的说明（原样的 Markdown）。只有这里读这一节：教学检查（chain-names.ts、chain-steps.ts）
// 和网站首页的链路图（site/lib/chain.ts）拿的是同一份结果。
import type { Table, TableCell } from "mdast";
import { toString } from "mdast-util-to-string";
import { type Section, lineOf, parseReadme, partsOf, walk } from "../markdown.ts";

/** 节标题的开头（README 里是「一轮对话的完整链路（s12）」）。 */
export const CHAIN_HEADING = "一轮对话的完整链路";

/** 一个 H2 标题是不是链路这一节。 */
export const isChainHeading = (title: string): boolean => title.startsWith(CHAIN_HEADING);

/** 步骤表的一行：所在的行号，每一格的语法树、原样的 Markdown 和去掉标记的文字。 */
export type ChainTableRow = { line: number; cells: TableCell[]; markdown: string[]; text: string[] };

export type ChainSection = {
  section: Section;
  /** 步骤表：节里第一张表头第一格是「步骤」的表；header 是表头每一格的文字。 */
  table: { header: string[]; rows: ChainTableRow[] } | undefined;
  /** 节里第一个 ```mermaid 代码块：内容和开头那一行的行号。 */
  diagram: { body: string; line: number } | undefined;
  /** 标题之后、图之前的 Markdown（没有图就到表为止）。 */
  intro: string;
  /** 表之后到这一节结束的 Markdown。 */
  outro: string;
};

/** 读出链路这一节；README 里没有这一节就是 undefined。 */
export function readChainSection(readme: string): ChainSection | undefined {
  const section = partsOf(parseReadme(readme)).find((p) => isChainHeading(p.name));
  if (section === undefined) return undefined;
  const source = (from: number | undefined, to: number | undefined): string => readme.slice(from ?? 0, to ?? from ?? 0).trim();
  let tableNode: Table | undefined;
  let diagram: ChainSection["diagram"];
  let diagramStart: number | undefined;
  walk(section.nodes, (n) => {
    if (tableNode === undefined && n.type === "table" && toString(n.children[0]?.children[0] ?? { type: "text", value: "" }).trim() === "步骤") tableNode = n;
    if (diagram === undefined && n.type === "code" && n.lang === "mermaid") {
      diagram = { body: n.value, line: lineOf(n) };
      diagramStart = n.position?.start.offset;
    }
  });
  const cellMarkdown = (cell: TableCell): string => source(cell.children[0]?.position?.start.offset, cell.children.at(-1)?.position?.end.offset);
  const rows = (tableNode?.children ?? []).map((row) => ({
    line: lineOf(row),
    cells: row.children,
    markdown: row.children.map(cellMarkdown),
    text: row.children.map((c) => toString(c).trim()),
  }));
  const [head, ...body] = rows;
  const table = tableNode === undefined || head === undefined ? undefined : { header: head.text, rows: body };
  // 标题所在的那一行之后算起；这一节在最后一个节点结束的地方结束（后面的空行不算）
  const headingEnd = readme.split("\n").slice(0, section.line).join("\n").length;
  const sectionEnd = section.nodes.at(-1)?.position?.end.offset ?? headingEnd;
  const intro = source(headingEnd, diagramStart ?? tableNode?.position?.start.offset ?? sectionEnd);
  const outro = tableNode === undefined ? "" : source(tableNode.position?.end.offset, sectionEnd);
  return { section, table, diagram, intro, outro };
}
