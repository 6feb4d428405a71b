/**
 * Docs checks for the lesson READMEs (EVOLUTION.md §6.2 template, §6.3 R-写①–⑤, §6.4 接入主线), plus README code
 * excerpts against code.ts and Pi citations against Pi 1.6.0. One module per rule, each opening with what a README
 * writer must do to pass it: template.ts, try-it.ts, mainline.ts, ghost-nouns.ts, vocabulary.ts, pi-trace.ts,
 * pi-files.ts, pi-boundary.ts, excerpts.ts, banned.ts, error-table.ts, narrative-codes.ts.
 *
 * Every check is a function `(lessonId, readmeText, context) => string[]` (the 试一下 check is async because it
 * runs commands through the injected `context.run`). Real READMEs and the fixtures under tests/fixtures/docs/ go
 * through the same functions (context.ts loads either). Messages always start with `sNN README …`.
 * The README is read as a Markdown syntax tree (tooling/markdown.ts); names in it as spans.ts says.
 * Check one lesson by hand: `npm run docs:check -- s03`.
 *
 * Not a lesson check, so not in CHECKS: english-readme.ts compares README.en.md with the root README (commands, lesson
 * table); tests/docs.test.ts runs it.
 */
import { existsSync, readFileSync } from "node:fs";
import { checkBannedPhrases } from "./banned.ts";
import { type CheckFn, type DocsContext, type Project, type ProjectOptions, contextFor, loadProject } from "./context.ts";
import { checkErrorTable } from "./error-table.ts";
import { checkCodeExcerpts } from "./excerpts.ts";
import { checkGhostNouns } from "./ghost-nouns.ts";
import { checkMainline } from "./mainline.ts";
import { checkNarrativeCodes } from "./narrative-codes.ts";
import { checkPiBoundary } from "./pi-boundary.ts";
import { checkPiFiles } from "./pi-files.ts";
import { checkPiTrace } from "./pi-trace.ts";
import { checkTemplate } from "./template.ts";
import { checkTryIt } from "./try-it.ts";
import { checkVocabulary } from "./vocabulary.ts";

export const CHECKS: readonly { rule: string; check: CheckFn }[] = [
  { rule: "模板（§6.2）", check: checkTemplate },
  { rule: "试一下真的跑得出写着的输出", check: checkTryIt },
  { rule: "接入主线和 API 差异对得上（§6.4）", check: checkMainline },
  { rule: "没有幽灵名词", check: checkGhostNouns },
  { rule: "词汇纪律（R-写⑤）", check: checkVocabulary },
  { rule: "Pi 源码溯源在 Pi 1.6.0 里都有", check: checkPiTrace },
  { rule: "Pi 的名字定义在引用的那个 Pi 文件里", check: checkPiFiles },
  { rule: "Pi 边界写着依据，依据在 Pi 1.6.0 或保真对照里都有", check: checkPiBoundary },
  { rule: "代码片段和 code.ts 对得上", check: checkCodeExcerpts },
  { rule: "没有禁用的套话（R-写④）", check: checkBannedPhrases },
  { rule: "run 的报错一览和代码对得上", check: checkErrorTable },
  { rule: "叙事里不写规则和决策的编号", check: checkNarrativeCodes },
];

/** Every check's violations, keyed by rule. */
export async function checkReadme(lessonId: string, readme: string, ctx: DocsContext): Promise<Map<string, string[]>> {
  const results = await Promise.all(CHECKS.map(async ({ rule, check }) => [rule, await check(lessonId, readme, ctx)] as const));
  return new Map(results);
}

/** Violations of one lesson's README (`sNN README: missing` when there is none). For scripts/check-docs.ts. */
export async function checkLesson(id: string, options: ProjectOptions = {}, project?: Project): Promise<string[]> {
  const p = project ?? loadProject(options);
  const lesson = p.lessons.find((l) => l.id === id);
  if (!lesson) return [`${id} README: no lesson folder ${id}_*/code.ts`];
  if (!existsSync(lesson.readmePath)) return [`${id} README: missing`];
  const results = await checkReadme(id, readFileSync(lesson.readmePath, "utf8"), contextFor(p, lesson));
  return [...results.values()].flat();
}
