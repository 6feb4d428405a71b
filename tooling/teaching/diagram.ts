/**
 * 教学检查：图（每课一张 Mermaid 图），在 Markdown 语法树上查。写的人要做到：
 *
 *   恰好一个 ```mermaid 代码块。词汇纪律对图也一样：图里的标识符不能是后面课的名字（「后面」照 tooling/names.ts 说的：
 *   第一次出现在 API 报告 tests/api/sNN.json、宪法的 DICTIONARY 或 LESSON_NAMES（§3）里的那一课；这一课的代码也用的成员或
 *   字面量词是普通代码）。这一课新加的零件要高亮：至少一个带引号标签的节点在 `new` 这个 class 里（`x:::new` 或
 *   `class x,y new`），高亮的标签里至少点到一个这一课引入的名字。
 */
import { lineOf, parseReadme, walk } from "../markdown.ts";
import { type Vocabulary, identifiersIn, laterLessonOf } from "../names.ts";

/** 流程图的节点标签（`id["…"]`、`id(["…"])`、`id{"…"}` ……）和 `new` 这个 class 里的 id。 */
export function mermaidNodes(body: string): { labels: Map<string, string>; highlighted: Set<string> } {
  const labels = new Map<string, string>();
  const highlighted = new Set<string>();
  for (const m of body.matchAll(/(?<![\w$])([A-Za-z_][\w]*)\s*(?:\(\[|\[\[|\[\(|\(\(|\{\{|\[|\(|\{|>)\s*"([^"]*)"\s*(?:\]\)|\]\]|\)\]|\)\)|\}\}|\]|\)|\})(:::\s*([\w-]+))?/g)) {
    const id = m[1] ?? "";
    labels.set(id, `${labels.get(id) ?? ""} ${m[2] ?? ""}`);
    if (m[4] === "new") highlighted.add(id);
  }
  for (const m of body.matchAll(/^\s*class\s+([\w,\s]+?)\s+new\s*;?\s*$/gm)) for (const id of (m[1] ?? "").split(/[,\s]+/)) if (id !== "") highlighted.add(id);
  return { labels, highlighted };
}

/** 图：恰好一张 Mermaid 图；图里没有后面课的名字；高亮的部分点到这一课新加的东西。 */
export function checkDiagram(lesson: string, readme: string, vocab: Vocabulary): string[] {
  const say = (what: string): string => `${lesson} README 图: ${what}`;
  const diagrams: { body: string; line: number }[] = [];
  // 文档检查已经给这份 README 建好的语法树（parseReadme 有缓存）：二级标题里不会有代码块
  const doc = parseReadme(readme);
  walk([...doc.head, ...doc.sections.flatMap((s) => s.nodes)], (node) => {
    if (node.type === "code" && node.lang === "mermaid") diagrams.push({ body: node.value, line: lineOf(node) });
  });
  if (diagrams.length !== 1) return [say(`a lesson README has exactly one \`\`\`mermaid diagram of where its part sits in the turn chain; found ${diagrams.length}`)];
  const [{ body, line: at }] = diagrams as [{ body: string; line: number }];
  const out: string[] = [];
  for (const name of new Set(identifiersIn(body))) {
    const later = laterLessonOf(name, lesson, vocab);
    if (later !== undefined) out.push(say(`line ${at}: \`${name}\` is introduced in ${later}; a lesson's picture shows only this and earlier lessons' parts (R-写⑤)`));
  }
  const { labels, highlighted } = mermaidNodes(body);
  const shown = [...highlighted].filter((id) => labels.has(id));
  if (shown.length === 0) out.push(say(`line ${at}: highlight this lesson's part: put at least one labelled node in class \`new\` (\`id:::new\` or \`class id new\`)`));
  else {
    const own = shown.flatMap((id) => identifiersIn(labels.get(id) ?? "")).filter((name) => vocab.origins.get(name)?.lesson === lesson);
    if (own.length === 0) out.push(say(`line ${at}: the highlighted nodes (${shown.join(", ")}) name nothing ${lesson} introduces`));
  }
  return out;
}
