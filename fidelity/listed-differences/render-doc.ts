// 由数据生成 fidelity/DIFFERENCES.md：按循环和六个机制分节，每节列剧本、已列出的差异、表示法对应。
// 手改那个文件没用，改数据再跑：
//   npm run gen:differences
// 根目录的 `npm test` 检查提交的文件和这里生成的一致。

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Mechanism, MECHANISM_SCENARIOS, MECHANISMS } from "../mechanisms.ts";
import { LOOP_SCENARIOS } from "../scenarios.ts";
import { PI_FACT_DIFFERENCES } from "./fact-rows.ts";
import { REPRESENTATIONS, type Where } from "./representations.ts";
import { PI_TRACE_DIFFERENCES } from "./trace-rows.ts";

export const DOC_PATH = join(import.meta.dirname, "..", "DIFFERENCES.md");

const WHERE = { history: "历史", requests: "请求", both: "历史和请求", caller: "调用方" } as const;

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
const ids = (list: readonly string[]): string => list.map((s) => `\`${s}\``).join("、");
const status = (s: "deliberate" | "pending"): string => (s === "pending" ? "待定" : "故意");

function representations(where: Where): string[] {
  const rows = REPRESENTATIONS.filter((r) => r.where === where);
  if (rows.length === 0) return [];
  return [
    "### 表示法对应（不算差异）",
    "",
    "| Pi 1.6.0 | mini Pi | 为什么 |",
    "|---|---|---|",
    ...rows.map((r) => `| ${cell(r.pi)} | ${cell(r.mini)} | ${cell(r.why)} |`),
    "",
  ];
}

function mechanismSection(mechanism: Mechanism): string[] {
  const scenarios = MECHANISM_SCENARIOS.filter((s) => s.mechanism === mechanism);
  const own = PI_FACT_DIFFERENCES.filter((d) => d.mechanism === mechanism);
  const ids_ = new Set(scenarios.map((s) => s.id));
  const borrowed = PI_TRACE_DIFFERENCES.filter((d) => d.scenarios.some((s) => ids_.has(s)));
  return [
    `## ${mechanism} ${MECHANISMS[mechanism]}`,
    "",
    `从 ${mechanism} 起的每一课都跑这些剧本。`,
    "",
    "| 剧本 | 看什么 |",
    "|---|---|",
    ...scenarios.map((s) => `| \`${s.id}\` | ${cell(s.title)} |`),
    "",
    ...(own.length === 0
      ? ["这一节的剧本没有自己的差异。", ""]
      : [
          "| 编号 | 状态 | 剧本 | Pi 1.6.0 | mini Pi | 为什么 |",
          "|---|---|---|---|---|---|",
          ...own.map((d) => `| ${d.id} | ${status(d.status)} | ${ids(d.scenarios)} | ${cell(d.pi)} | ${cell(d.mini)} | ${cell(d.reason)} |`),
          "",
        ]),
    ...(borrowed.length === 0
      ? []
      : [
          `这一节的剧本里比轨迹（历史、发给模型的消息）时，还用到循环一节的 ${borrowed
            .map((d) => `${d.id}（${ids(d.scenarios.filter((s) => ids_.has(s)))}）`)
            .join("、")}。`,
          "",
        ]),
    ...representations(mechanism),
  ];
}

export function renderDoc(): string {
  const lines = [
    "# mini Pi 与 Pi 1.6.0 的已列出差异",
    "",
    "> 本文件由 `npm run gen:differences`（`fidelity/listed-differences/render-doc.ts`）从 `fidelity/listed-differences/` 的两张差异表和表示法对应、`fidelity/scenarios.ts` 和 `fidelity/mechanisms.ts` 生成，不要手改。",
    "",
    "`npm run fidelity` 把每个剧本分别交给真实 Pi 1.6.0 和适用的每一课的 mini Pi，再比较两边：",
    "",
    "- **循环剧本**（从引入那个零件的课起，多数是 s04）交给 `@earendil-works/pi-agent-core` 的 `runAgentLoop`，比较归一后的消息轨迹：跑完一轮后存下的历史，",
    "  以及每次请求时模型看到的消息（第 k 次请求对第 k 次请求）。调用方在一轮中途插手的剧本（再发一句、放弃不回话的模型）交给同一个包的 `Agent`，",
    "  另外比较调用方每一步看到了什么。",
    "- **机制剧本**（从引入那个机制的课起）交给 `@earendil-works/pi-coding-agent` 的 `SessionManager`、`DefaultResourceLoader`、",
    "  扩展装载器和 `ExtensionRunner`（经 `AgentSession`）、`runPrintMode`、项目信任和本地包，比较两边的「观察」：几条事实加几条轨迹。",
    "  磁盘上的项目、扩展文件、包由 `fidelity/project.ts` 写在一个临时目录里，两边读的是同一批文件。",
    "",
    "Pi 一侧全部在钉死的 Node 24 上跑（pi-coding-agent 要 Node ≥ 22.19），mini Pi 一侧在课程自己的 Node 上跑。",
    "两边的不同要么在课程里修掉，要么列在下面的表里并写明理由；表外的不同、没有剧本用到的行、「待定」的行，都让对照失败。",
    "表的顺序就是对照时应用的顺序。",
    "",
    "## 循环（s03–s06）",
    "",
    "| 剧本 | 看什么 | 从哪课起 |",
    "|---|---|---|",
    ...LOOP_SCENARIOS.map((s) => `| \`${s.id}\` | ${cell(s.title)} | ${s.since} |`),
    "",
    "下表的行比的是轨迹，机制剧本里的轨迹（比如扩展剧本跑完一轮的历史）也用它们，所以有的行也列着机制剧本。",
    "",
    "| 编号 | 状态 | 出现在 | 剧本 | Pi 1.6.0 | mini Pi | 为什么 |",
    "|---|---|---|---|---|---|---|",
    ...PI_TRACE_DIFFERENCES.map((d) => `| ${d.id} | ${status(d.status)} | ${WHERE[d.on]} | ${ids(d.scenarios)} | ${cell(d.pi)} | ${cell(d.mini)} | ${cell(d.reason)} |`),
    "",
    ...representations("loop"),
    ...(Object.keys(MECHANISMS) as Mechanism[]).flatMap(mechanismSection),
  ];
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(DOC_PATH, renderDoc());
  console.log(`wrote ${DOC_PATH}`);
}
