// 真实 Pi 一侧的入口：run.ts 用钉死的 Node 24（scripts/node24.sh）起这个进程，因为 pi-coding-agent 1.6.0 要 Node ≥ 22.19。
// 它把全部循环剧本交给 runAgentLoop（pi-loop.ts），全部机制剧本交给 pi-coding-agent（pi-mechanisms.ts），
// 结果写成一个 JSON 文件交回去；mini Pi 一侧留在课程自己的 Node 上跑。
//   node --import tsx fidelity/pi-side.ts <剧本文件的目录> <结果文件>
// stdout 留给 runPrintMode（s10 的剧本要接住它），所以结果不走 stdout。

import { writeFileSync } from "node:fs";
import type { Observation } from "./compare.ts";
import { MECHANISM_SCENARIOS } from "./mechanisms.ts";
import type { Run } from "./mini-loop.ts";
import { runPi } from "./pi-loop.ts";
import { runPiMechanism } from "./pi-mechanisms.ts";
import { LOOP_SCENARIOS } from "./scenarios.ts";

/** 一个剧本在 Pi 上的结果，或者 Pi 一侧抛出的错误（对照会把它报成问题）。 */
export type PiResult<T> = { ok: true; value: T } | { ok: false; error: string };
export type PiResults = { node: string; loop: Record<string, PiResult<Run>>; mechanisms: Record<string, PiResult<Observation>> };

const attempt = async <T>(f: () => Promise<T>): Promise<PiResult<T>> => {
  try {
    return { ok: true, value: await f() };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
};

const [root, out] = process.argv.slice(2);
if (root === undefined || out === undefined) throw new Error("usage: pi-side.ts <scenario root> <results.json>");
const results: PiResults = { node: process.version, loop: {}, mechanisms: {} };
for (const scenario of LOOP_SCENARIOS) results.loop[scenario.id] = await attempt(() => runPi(scenario));
for (const scenario of MECHANISM_SCENARIOS) results.mechanisms[scenario.id] = await attempt(() => runPiMechanism(scenario, root));
writeFileSync(out, JSON.stringify(results));
