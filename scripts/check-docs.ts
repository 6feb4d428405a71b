/**
 * npm run docs:check：给写 README 的人用，和 tests/docs.test.ts 同一套检查，照 EVOLUTION.md §6 查每课的 README。
 *
 *   npm run docs:check -- s03          查一课
 *   npm run docs:check -- s03 s04      查几课
 *   npm run docs:check                 查每一课，外加 README.en.md 对 README.md、根 README 的链路对 s12（和 tests/teaching.test.ts
 *                                      的「根 README」同一套）、根 README 的仓库布局和 tests/README.md 的两张表对目录（tests/folder-map.test.ts）
 *
 * 一处违规打一行（没有就打「sNN README: ok」），有违规时退出码是 1。每条规则要 README 怎么写才过，写在 tooling/docs/ 里它那个文件的开头。
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LESSONS, LESSON_DIRS, ROOT, lessonDir } from "../tooling/course.ts";
import { loadProject } from "../tooling/docs/context.ts";
import { checkEnglishReadme } from "../tooling/docs/english-readme.ts";
import { checkFolderMap, checkTestsReadme } from "../tooling/docs/folder-map.ts";
import { checkLesson } from "../tooling/docs/index.ts";
import { repoFiles, topFolders } from "../tooling/repo/files.ts";
import { checkRootChain } from "../tooling/teaching/chain-names.ts";
import { observeChain } from "../tooling/teaching/chain-run.ts";
import { checkChainSteps } from "../tooling/teaching/chain-steps.ts";
import { glossaryAnchors } from "../tooling/teaching/glossary.ts";

const project = loadProject();
const wanted = process.argv.slice(2).map((a) => /^s\d\d/.exec(a)?.[0] ?? a);
const ids = wanted.length > 0 ? wanted : project.lessons.map((l) => l.id);

let failed = false;
for (const id of ids) {
  const violations = await checkLesson(id, {}, project);
  if (violations.length === 0) console.log(`${id} README: ok`);
  for (const v of violations) console.log(v);
  failed ||= violations.length > 0;
}
if (wanted.length === 0) {
  // 英文入口跟着 README.md 的命令和课程表走（tests/english-readme.test.ts 跑的是同一个检查）
  const read = (file: string): string => readFileSync(join(ROOT, file), "utf8");
  const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
  const violations = checkEnglishReadme({ zh: read("README.md"), en: read("README.en.md"), lessonDirs: LESSON_DIRS, scripts });
  if (violations.length === 0) console.log("README.en.md: ok");
  for (const v of violations) console.log(v);
  failed ||= violations.length > 0;
  // 根 README 的链路：点到的名字都在 s12 里，步骤按 s12 真跑一轮的先后编号
  const code = read(`${lessonDir(LESSONS.at(-1) ?? "s12")}/code.ts`);
  const readme = read("README.md");
  const chain = [...checkRootChain(readme, code, glossaryAnchors(read("GLOSSARY.md")).ids, LESSONS), ...checkChainSteps(readme, code, await observeChain(code))];
  if (chain.length === 0) console.log("README.md 一轮对话的完整链路: ok");
  for (const v of chain) console.log(v);
  failed ||= chain.length > 0;
  // 写着「放的是什么」的三张表对目录：根 README 的仓库布局、tests/README.md 的测试表和工具库表
  const files = repoFiles();
  const maps = [...checkFolderMap(readme, topFolders(files)), ...checkTestsReadme(read("tests/README.md"), files)];
  if (maps.length === 0) console.log("README.md 仓库布局, tests/README.md: ok");
  for (const v of maps) console.log(v);
  failed ||= maps.length > 0;
}
process.exitCode = failed ? 1 : 0;
