// 练习模式读课的 README：空白处的提示指向讲它的那一小节，「自己写一遍」小节里的命令和输出拿出来核对。
import type { Code, Nodes, RootContent } from "mdast";
import { parseMarkdown, partsOf } from "../../tests/teaching.ts";

const textOf = (node: Nodes): string => ("value" in node ? node.value : "children" in node ? node.children.map(textOf).join("") : "");

type Part = { title: string; nodes: RootContent[] };

/**
 * 一个 H2 节切成小节：有 H3 就按 H3 切；没有 H3 的节按加粗开头的段落切（「**第一步：…**」），标题去掉收尾的标点。
 * 第一个小节之前的内容归在 H2 自己名下。
 */
function subsections(readme: string, h2: string): Part[] {
  const section = partsOf(parseMarkdown(readme)).find((p) => p.name === h2);
  if (section === undefined) return [];
  const hasH3 = section.nodes.some((n) => n.type === "heading" && n.depth === 3);
  const parts: Part[] = [{ title: h2, nodes: [] }];
  for (const node of section.nodes) {
    const lead = node.type === "paragraph" && node.children[0]?.type === "strong" ? node.children[0] : undefined;
    if (node.type === "heading" && node.depth === 3) parts.push({ title: textOf(node).trim(), nodes: [] });
    else if (!hasH3 && lead !== undefined) parts.push({ title: textOf(lead).trim().replace(/[。：:，,]$/, ""), nodes: [node] });
    else parts.at(-1)?.nodes.push(node);
  }
  return parts;
}

const inlineCodes = (nodes: readonly Nodes[]): string[] =>
  nodes.flatMap((n) => (n.type === "inlineCode" ? [n.value] : "children" in n ? inlineCodes(n.children) : []));

/**
 * 「工作原理」里讲某处空白的小节，依次找：
 * ① 整个函数体都空着时，标题里提到这个函数（或它所在的类）的；② 代码片段里有空白处第一行代码的；
 * ③ 标题里提到它的；④ 正文的行内代码里提到它、或提到空白处那行代码里的名字的。都没有就是「工作原理」本身。
 */
export function sectionFor(readme: string, stub: { names: readonly string[]; anchor: string; whole: boolean }): string {
  const parts = subsections(readme, "工作原理");
  const word = (name: string): RegExp => new RegExp(`(^|[^\\w])${name.replace(/[$]/g, "\\$")}([^\\w]|$)`);
  // 先找最具体的名字：`ExtensionRuntime.emit` 先找 emit 的小节，没有才找 ExtensionRuntime 的
  const titled = stub.names.map((n) => parts.find((p) => word(n).test(p.title))).find((p) => p !== undefined);
  const fenced = parts.find((p) => p.nodes.some((n) => n.type === "code" && n.value.split("\n").some((l) => l.trim() === stub.anchor)));
  const anchorNames = stub.anchor.match(/[A-Za-z_$][\w$]*/g) ?? [];
  const mentions = (names: readonly string[]): Part | undefined => parts.find((p) => inlineCodes(p.nodes).some((c) => names.some((n) => word(n).test(c))));
  const found = stub.whole ? (titled ?? fenced) : (fenced ?? titled);
  return (found ?? mentions(stub.names) ?? mentions(anchorNames.filter((n) => n.length > 3)))?.title ?? "工作原理";
}

/** 「试一下」里「自己写一遍」小节的代码块，按出现顺序。 */
export function practiceBlocks(readme: string): { title: string; blocks: Code[] } | undefined {
  const part = subsections(readme, "试一下").find((p) => p.title === PRACTICE_HEADING);
  if (part === undefined) return undefined;
  return { title: part.title, blocks: part.nodes.filter((n): n is Code => n.type === "code") };
}

export const PRACTICE_HEADING = "自己写一遍";
