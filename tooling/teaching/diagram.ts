/**
 * Teaching check: 图 (one Mermaid diagram per lesson), on the Markdown syntax tree. What a writer must do to pass:
 *
 *   Exactly one ```mermaid block. Vocabulary discipline holds for pictures too: no identifier in it may be a
 *   later lesson's name (later as tooling/names.ts says: first appearance in the API reports tests/api/sNN.json,
 *   the constitution's DICTIONARY or its LESSON_NAMES (§3); a member or literal word that this lesson's code also
 *   uses is ordinary code). The part this lesson adds is highlighted: at least one node with a quoted label is in
 *   class `new` (`x:::new` or `class x,y new`), and the highlighted labels name at least one name this lesson
 *   introduces.
 */
import { lineOf, parseReadme, walk } from "../markdown.ts";
import { type Vocabulary, identifiersIn, laterLessonOf } from "../names.ts";

/** Node labels of a flowchart (`id["…"]`, `id(["…"])`, `id{"…"}` …) and the ids in class `new`. */
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

/** 图: exactly one Mermaid diagram; no later lesson's name in it; the highlighted part names something this lesson adds. */
export function checkDiagram(lesson: string, readme: string, vocab: Vocabulary): string[] {
  const say = (what: string): string => `${lesson} README 图: ${what}`;
  const diagrams: { body: string; line: number }[] = [];
  // the syntax tree the docs checks already built for this README (parseReadme caches it): H2 headings hold no code blocks
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
