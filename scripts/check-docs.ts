/**
 * npm run docs:check — the lesson READMEs against EVOLUTION.md §6, the same checks as tests/docs.test.ts, for README writers.
 *
 *   npm run docs:check -- s03          one lesson
 *   npm run docs:check -- s03 s04      several
 *   npm run docs:check                 every lesson folder, README.en.md against README.md, and the root README's chain
 *                                      against s12 (the same checks as tests/teaching.test.ts's 根 README)
 *
 * Prints one violation per line (or "sNN README: ok") and exits 1 when there is any violation.
 * What a README must do to pass each rule is written at the top of its module in tooling/docs/.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LESSONS, LESSON_DIRS, ROOT, lessonDir } from "../tooling/course.ts";
import { loadProject } from "../tooling/docs/context.ts";
import { checkEnglishReadme } from "../tooling/docs/english-readme.ts";
import { checkLesson } from "../tooling/docs/index.ts";
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
  // the English front door follows README.md's commands and lesson table (tests/english-readme.test.ts runs the same check)
  const read = (file: string): string => readFileSync(join(ROOT, file), "utf8");
  const scripts = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts;
  const violations = checkEnglishReadme({ zh: read("README.md"), en: read("README.en.md"), lessonDirs: LESSON_DIRS, scripts });
  if (violations.length === 0) console.log("README.en.md: ok");
  for (const v of violations) console.log(v);
  failed ||= violations.length > 0;
  // the root README's chain: its names are s12's, its steps are numbered as s12 really runs them
  const code = read(`${lessonDir(LESSONS.at(-1) ?? "s12")}/code.ts`);
  const readme = read("README.md");
  const chain = [...checkRootChain(readme, code, glossaryAnchors(read("GLOSSARY.md")).ids, LESSONS), ...checkChainSteps(readme, code, await observeChain(code))];
  if (chain.length === 0) console.log("README.md 一轮对话的完整链路: ok");
  for (const v of chain) console.log(v);
  failed ||= chain.length > 0;
}
process.exitCode = failed ? 1 : 0;
