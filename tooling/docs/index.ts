/**
 * 课的 README 的文档检查（EVOLUTION.md §6.2 的模板、§6.3 的 R-写①–⑤、§6.4 的接入主线），外加 README 里的代码片段对
 * code.ts、引用的 Pi 对 Pi 1.6.0。一条规则一个文件，文件开头写着 README 要怎么写才过：template.ts、try-it.ts、mainline.ts、
 * ghost-nouns.ts、vocabulary.ts、pi-trace.ts、pi-files.ts、pi-boundary.ts、excerpts.ts、banned.ts、error-table.ts、
 * narrative-codes.ts。
 *
 * 每条检查都是一个函数 `(lessonId, readmeText, context) => string[]`（试一下那条是 async 的，因为它要经注入的
 * `context.run` 跑命令）。真的 README 和 tests/fixtures/docs/ 下的样例走同一组函数（context.ts 两种都能载入）。
 * 报错总以 `sNN README …` 开头。README 读成 Markdown 语法树（tooling/markdown.ts），里面的名字照 spans.ts 说的认。
 * 手动查一课：`npm run docs:check -- s03`。
 *
 * 不是查一课的，所以不在 CHECKS 里：english-readme.ts 拿 README.en.md 和根 README 比（命令、课程表），由
 * tests/english-readme.test.ts 跑；folder-map.ts 拿根 README 的仓库布局和 tests/README.md 的两张表对目录，由
 * tests/folder-map.test.ts 跑。两个都由不带课号的 `npm run docs:check` 跑。
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

/** 每条检查的违规，按规则分开。 */
export async function checkReadme(lessonId: string, readme: string, ctx: DocsContext): Promise<Map<string, string[]>> {
  const results = await Promise.all(CHECKS.map(async ({ rule, check }) => [rule, await check(lessonId, readme, ctx)] as const));
  return new Map(results);
}

/** 一课 README 的违规（没有 README 时是 `sNN README: missing`）。给 scripts/check-docs.ts 用。 */
export async function checkLesson(id: string, options: ProjectOptions = {}, project?: Project): Promise<string[]> {
  const p = project ?? loadProject(options);
  const lesson = p.lessons.find((l) => l.id === id);
  if (!lesson) return [`${id} README: no lesson folder ${id}_*/code.ts`];
  if (!existsSync(lesson.readmePath)) return [`${id} README: missing`];
  const results = await checkReadme(id, readFileSync(lesson.readmePath, "utf8"), contextFor(p, lesson));
  return [...results.values()].flat();
}
