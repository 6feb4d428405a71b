// Writes tests/api/sNN.json, the API report of every lesson (format: tests/api/extract.ts).
// Run after changing a lesson: `npm run api`; the diff of these files is the lesson's API change.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, buildApiReports } from "../tooling/api/extract";

const { reports, diagnostics } = buildApiReports();
for (const [id, report] of Object.entries(reports)) {
  // keys are already sorted by the extractor
  writeFileSync(join(ROOT, "tests", "api", `${id}.json`), `${JSON.stringify(report, null, 2)}\n`);
  const errors = diagnostics[id] ?? [];
  if (errors.length > 0) console.warn(`${id}: ${errors.length} TS error(s), report may be wrong:\n  ${errors.join("\n  ")}`);
}
console.log(`wrote ${Object.keys(reports).length} report(s) to tests/api/: ${Object.keys(reports).join(" ")}`);
