/**
 * Docs check: 词汇纪律 (R-写⑤; the title block and every section but 接入主线 and Pi 源码溯源). What a README writer must do to pass:
 *
 *   No identifier inside inline code (spaces or not) may be a later lesson's name (labels don't help).
 *   Later names = first appearance in the API reports, the constitution's DICTIONARY and LESSON_NAMES (§3).
 *   A member/literal word outside LESSON_NAMES that this lesson's code also uses (`message` in
 *   `error.message`) is not counted. Prose is held to the same rule for code-looking tokens: an uppercase
 *   letter after the first character (SessionTree, maxTurns), an underscore (tool_call) or a call (run()).
 *   Plain words (run, model) pass. Fenced blocks (the 试一下 commands and output) are not prose.
 *   The evidence clause （依据：…） of the Pi 边界 line cites Pi, like the Pi trace: pi-boundary.ts checks it instead.
 */
import { HEAD, linesOf, parseReadme } from "../markdown.ts";
import { type DocsContext, laterLesson } from "./context.ts";
import { boundaryLine, withoutEvidence } from "./pi-boundary.ts";
import { FILE_EXT, identifiersIn, proseTokens, spansOfLine, vocabularyLooking } from "./spans.ts";

/** Sections outside 词汇纪律 (R-写⑤): labelled signposts are allowed in 接入主线, the Pi trace has its own control. */
export const VOCABULARY_EXEMPT: readonly string[] = ["接入主线", "Pi 源码溯源"];

export function checkVocabulary(lessonId: string, readme: string, ctx: DocsContext): string[] {
  const out: string[] = [];
  const doc = parseReadme(readme);
  const scopes = [{ name: HEAD, nodes: doc.head }, ...doc.sections.filter((s) => !VOCABULARY_EXEMPT.includes(s.name))];
  const boundary = boundaryLine(readme)?.line;
  for (const { name: section, nodes } of scopes) {
    const say = (shown: string, later: string, where = ""): void =>
      void out.push(`${lessonId} README ${section}: \`${shown}\`${where} is introduced in ${later}; ${section} may only use names this lesson has explained (R-写⑤)`);
    for (const read of linesOf(nodes)) {
      const line = section === HEAD && read.line === boundary ? withoutEvidence(read) : read;
      for (const span of spansOfLine(line)) {
        const t = span.text.trim();
        if (/^(?:npm|npx|tsx|node)\s/.test(t) || /^[\w.-]*\/[\w./-]*$/.test(t) || FILE_EXT.test(t)) continue;
        for (const id of identifiersIn(t)) {
          const later = laterLesson(id, lessonId, ctx);
          if (later !== undefined) say(id, later);
        }
      }
      // plain prose (outside inline code and fenced blocks): only code-looking tokens count
      for (const { name, shown } of proseTokens(line, vocabularyLooking)) {
        const later = laterLesson(name, lessonId, ctx);
        if (later !== undefined) say(shown, later, " (in prose)");
      }
    }
  }
  return [...new Set(out)];
}
