// 由数据生成 fidelity/DIFFERENCES.md：剧本清单、已列出的差异、表示法对应。手改那个文件没用，改数据再跑：
//   npx tsx fidelity/doc.ts
// 根目录的 `npm test` 检查提交的文件和这里生成的一致。

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { DIFFERENCES, REPRESENTATIONS } from "./differences.ts";
import { SCENARIOS } from "./scenarios.ts";

export const DOC_PATH = join(import.meta.dirname, "DIFFERENCES.md");

const WHERE = { history: "历史", requests: "请求", both: "历史和请求" } as const;

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderDoc(): string {
  const lines = [
    "# mini Pi 与 Pi 1.6.0 的已列出差异",
    "",
    "> 本文件由 `npx tsx fidelity/doc.ts` 从 `fidelity/differences.ts` 和 `fidelity/scenarios.ts` 生成，不要手改。",
    "",
    "`npm run fidelity` 把每个剧本分别交给真实 Pi（`@earendil-works/pi-agent-core` 1.6.0 的 `runAgentLoop`）和 s04 起每一课的 mini Pi，",
    "比较两边归一后的消息轨迹：跑完一轮后存下的历史，以及每次请求时模型看到的消息（第 k 次请求对第 k 次请求）。",
    "两边的不同要么在课程里修掉，要么列在下表并写明理由；表外的不同、没有剧本用到的行，都让对照失败。",
    "",
    "## 剧本",
    "",
    "| 剧本 | 看什么 | 从哪课起 |",
    "|---|---|---|",
    ...SCENARIOS.map((s) => `| \`${s.id}\` | ${cell(s.title)} | ${s.since} |`),
    "",
    "## 已列出的差异",
    "",
    "表的顺序就是对照时应用的顺序。每一行都必须是「故意」的、写明理由；出现「待定」的行，`npm run fidelity` 直接失败。",
    "",
    "| 编号 | 状态 | 出现在 | 剧本 | Pi 1.6.0 | mini Pi | 为什么 |",
    "|---|---|---|---|---|---|---|",
    ...DIFFERENCES.map(
      (d) =>
        `| ${d.id} | ${d.status === "pending" ? "待定" : "故意"} | ${WHERE[d.on]} | ${d.scenarios.map((s) => `\`${s}\``).join("、")} | ${cell(d.pi)} | ${cell(d.mini)} | ${cell(d.reason)} |`,
    ),
    "",
    "## 表示法对应（不算差异）",
    "",
    "同一件事两边写法不同，归一时就对齐了：",
    "",
    "| Pi 1.6.0 | mini Pi | 为什么 |",
    "|---|---|---|",
    ...REPRESENTATIONS.map((r) => `| ${cell(r.pi)} | ${cell(r.mini)} | ${cell(r.why)} |`),
    "",
  ];
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(DOC_PATH, renderDoc());
  console.log(`wrote ${DOC_PATH}`);
}
