/**
 * 文档检查：词汇纪律（R-写⑤；标题块和接入主线、Pi 源码溯源以外的每一节）。写 README 的人要做到：
 *
 *   行内代码里（带不带空格都一样）的标识符不能是后面课的名字（加标签也没用）。「后面课的名字」是第一次出现在 API 报告、
 *   宪法的 DICTIONARY 和 LESSON_NAMES（§3）里的那一课在这一课之后。LESSON_NAMES 以外、这一课的代码也用的成员或字面量词
 *   （`error.message` 里的 `message`）不算。正文里像代码的词守同一条规矩：第一个字符之后有大写字母（SessionTree、maxTurns）、
 *   有下划线（tool_call）或是调用（run()）。普通的词（run、model）放行。代码块（试一下的命令和输出）不是正文。
 *   Pi 边界那一行的依据小句（依据：…）引的是 Pi，和 Pi 源码溯源一样，改由 pi-boundary.ts 查。
 */
import { HEAD, linesOf, parseReadme } from "../markdown.ts";
import { type DocsContext, laterLesson } from "./context.ts";
import { boundaryLine, withoutEvidence } from "./pi-boundary.ts";
import { FILE_EXT, identifiersIn, proseTokens, spansOfLine, vocabularyLooking } from "./spans.ts";

/** 不归词汇纪律（R-写⑤）管的几节：接入主线里允许带标签的路标，Pi 源码溯源有它自己的检查。 */
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
      // 普通正文（行内代码和代码块之外）：只有像代码的词算数
      for (const { name, shown } of proseTokens(line, vocabularyLooking)) {
        const later = laterLesson(name, lessonId, ctx);
        if (later !== undefined) say(shown, later, " (in prose)");
      }
    }
  }
  return [...new Set(out)];
}
