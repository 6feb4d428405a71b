/**
 * Check lesson READMEs against EVOLUTION.md §6 — the same checks as tests/docs.test.ts, for README writers.
 *
 *   npx tsx scripts/check-docs.ts s03          one lesson
 *   npx tsx scripts/check-docs.ts s03 s04      several
 *   npx tsx scripts/check-docs.ts              every lesson folder (README_PENDING is ignored here)
 *
 * Prints one violation per line (or "sNN README: ok") and exits 1 when there is any violation.
 * The rules a README must follow are listed at the top of tests/docs.ts.
 */
import { checkLesson, loadProject } from "../tooling/docs";

const project = await loadProject();
const wanted = process.argv.slice(2).map((a) => /^s\d\d/.exec(a)?.[0] ?? a);
const ids = wanted.length > 0 ? wanted : project.lessons.map((l) => l.id);

let failed = false;
for (const id of ids) {
  const violations = await checkLesson(id, {}, project);
  if (violations.length === 0) console.log(`${id} README: ok`);
  for (const v of violations) console.log(v);
  failed ||= violations.length > 0;
}
process.exitCode = failed ? 1 : 0;
