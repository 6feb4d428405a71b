// npm run fidelity：每个剧本跑一次真实 Pi，再在 s04 起的每一课上各跑一次 mini Pi，比较轨迹（跑完后的历史，
// 和每次请求时模型看到的消息），打印
// 剧本 × 课 的表。任何表外差异（DIFF）、过期的差异表行、待定（pending）的行、剧本不够用、DIFFERENCES.md 没更新，都以非零退出。
//   npx tsx fidelity/run.ts            只打印表和问题
//   npx tsx fidelity/run.ts --verbose  另外打印每个剧本 Pi 和 s12 的轨迹

import { existsSync, readFileSync } from "node:fs";
import { LESSONS, lessonNumber } from "../tests/support/lessons.ts";
import { compareRequests, compareTraces, describeEntry, staleRows, type Trace } from "./compare.ts";
import { DIFFERENCES } from "./differences.ts";
import { DOC_PATH, renderDoc } from "./doc.ts";
import { type Run, runMini } from "./mini.ts";
import { runPi } from "./pi.ts";
import { SCENARIOS } from "./scenarios.ts";

const verbose = process.argv.includes("--verbose");
const lessons = LESSONS.filter((id) => lessonNumber(id) >= 4);
const pending = new Set(DIFFERENCES.filter((d) => d.status === "pending").map((d) => d.id));
const usage = new Map<string, Set<string>>();
const rows: string[][] = [];
/** 「剧本: 问题」→ 出现这个问题的课。同一个问题在 s04–s12 各出现一次时，只打印一行。 */
const problems = new Map<string, string[]>();
const report = (scenario: string, lesson: string, problem: string): void => {
  const key = `${scenario}\u0000${problem}`;
  problems.set(key, [...(problems.get(key) ?? []), lesson]);
};
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const printTrace = (label: string, trace: Trace): void => {
  console.log(`  ${label}`);
  trace.forEach((e, i) => console.log(`    #${i} ${describeEntry(e)}`));
};

for (const scenario of SCENARIOS) {
  let pi: Run;
  try {
    pi = await runPi(scenario);
  } catch (error) {
    report(scenario.id, "pi", `runAgentLoop threw: ${message(error)}`);
    rows.push([scenario.id, ...lessons.map(() => "DIFF")]);
    continue;
  }
  if (pi.overrun) report(scenario.id, "pi", "the script ran out of replies");
  const row = [scenario.id];
  let s12: Trace | undefined;
  for (const lesson of lessons) {
    if (lessonNumber(lesson) < lessonNumber(scenario.since)) {
      row.push("n/a");
      continue;
    }
    let mini: Run;
    try {
      mini = await runMini(lesson, scenario);
    } catch (error) {
      report(scenario.id, lesson, `the lesson threw: ${message(error)}`);
      row.push("DIFF");
      continue;
    }
    if (lesson === "s12") s12 = mini.trace;
    if (mini.overrun) report(scenario.id, lesson, "the script ran out of replies");
    const history = compareTraces(scenario.id, pi.trace, mini.trace, DIFFERENCES);
    const requests = compareRequests(scenario.id, pi.requests, mini.requests, DIFFERENCES);
    const used = DIFFERENCES.map((d) => d.id).filter((id) => history.used.includes(id) || requests.used.includes(id));
    const found = [...history.problems, ...requests.problems];
    for (const id of used) usage.set(id, (usage.get(id) ?? new Set()).add(scenario.id));
    for (const p of found) report(scenario.id, lesson, p);
    if (found.length > 0 || mini.overrun) row.push("DIFF");
    else row.push(used.length === 0 ? "same" : used.map((id) => (pending.has(id) ? `${id}?` : id)).join(" "));
  }
  rows.push(row);
  if (verbose) {
    console.log(`${scenario.id}: ${scenario.title}`);
    printTrace("pi", pi.trace);
    if (s12 !== undefined) printTrace("s12", s12);
  }
}

const failures: string[] = [];
for (const [key, where] of problems) {
  const [scenario, problem] = key.split("\u0000");
  const span = where.length > 1 && where.every((l, i) => i === 0 || lessonNumber(l) === lessonNumber(where[i - 1]) + 1) ? `${where[0]}–${where.at(-1)}` : where.join(",");
  failures.push(`${scenario} × ${span}: ${problem}`);
}
failures.push(...staleRows(DIFFERENCES, usage, SCENARIOS.map((s) => s.id)));
// 每条差异要么在课程里修掉，要么写成故意的、带理由；待定的行不算通过。
for (const d of DIFFERENCES.filter((x) => x.status === "pending")) {
  failures.push(`${d.id} is pending (${d.scenarios.join(", ")}): fix the lessons or mark it deliberate with a reason in fidelity/differences.ts`);
}
if (!existsSync(DOC_PATH) || readFileSync(DOC_PATH, "utf8") !== renderDoc()) {
  failures.push("fidelity/DIFFERENCES.md is out of date: run `npx tsx fidelity/doc.ts`");
}

// ── 表 ────────────────────────────────────────────────────
const header = ["scenario", ...lessons];
const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
const line = (cells: string[]): string => `| ${cells.map((text, c) => text.padEnd(widths[c])).join(" | ")} |`;
console.log("Pi 1.6.0 (pi-agent-core runAgentLoop) vs mini Pi, per scenario and lesson");
console.log("same = identical traces · Fn = only listed differences (fidelity/DIFFERENCES.md; Fn? = still pending) · n/a = the lesson lacks the mechanism · DIFF = unlisted difference\n");
console.log(line(header));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const row of rows) console.log(line(row));

if (failures.length > 0) {
  console.log(`\n${failures.length} problem(s):`);
  for (const f of failures) console.log(`  ${f}`);
  process.exitCode = 1;
} else {
  console.log(`\nfidelity: ${SCENARIOS.length} scenarios × ${lessons.length} lessons, no unlisted difference, every listed difference in use and deliberate`);
}
