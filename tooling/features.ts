// 功能表：哪一课起有哪个零件。「s09 起有扩展」这样的事实只写在这里，拼 Agent、跑场景、录回放、行为测试都问 has()，
// 不再各自写 n >= 9。每一行还点名一个 API 报告里的键（marks）：tests/course.test.ts 核对它恰好在 since 那一课第一次出现，
// 表写错了那条测试就失败。
import { type ApiReport, lessonNumber } from "./course.ts";

/** 零件 → 引入它的那一课，和那一课的 API 报告里第一次出现的那个键。 */
export const FEATURES = {
  /** ToolRegistry：工具清单取自 registry，演示工具和演示文件（DEMO_FILES）也从这一课起。 */
  tools: { since: "s02", marks: "ToolRegistry" },
  /** provider.stream 代替 complete：回答是一串事件（不可信的值由 describeValue 说清）。 */
  stream: { since: "s03", marks: "Provider.stream" },
  /** 工具循环：tool_call 事件、stopReason "toolUse"、runEventedToolLoop 和 maxTurns。 */
  toolLoop: { since: "s04", marks: "runEventedToolLoop" },
  /** 一次只跑一轮（turnsInProgress、refusedTurn、oneTurnAtATime）：一轮跨好几次请求，中途才会又来一轮。 */
  oneTurn: { since: "s04", marks: "oneTurnAtATime" },
  /** beforeToolCall / afterToolCall。 */
  hooks: { since: "s05", marks: "ToolHooks" },
  /** 每轮开头拍快照：一轮之内以快照为准。 */
  snapshot: { since: "s06", marks: "createTurnSnapshot" },
  /** AgentState.model：按模型挑 provider。 */
  model: { since: "s06", marks: "AgentState.model" },
  /** 历史是会话树（s07 的 U1 升级）。 */
  sessionTree: { since: "s07", marks: "SessionTree" },
  /** ResourceLoader 和系统提示。 */
  resources: { since: "s08", marks: "ResourceLoader" },
  /** ExtensionRuntime：扩展、运行时事件、命令、扩展错误。 */
  extensions: { since: "s09", marks: "ExtensionRuntime" },
  /** 登记工具先校验形状（ToolSchema、parseTool）：扩展登记的工具是别人写的代码。 */
  checkedTools: { since: "s09", marks: "parseTool" },
  /** 运行模式：Output 只由 PrintMode / JsonMode 写。 */
  modes: { since: "s10", marks: "RuntimeMode" },
  /** Output 抛错只丢那一行（writeLine）：运行模式把行写给别的程序读，读的那头随时可能关掉。 */
  safeOutput: { since: "s10", marks: "writeLine" },
  /** 项目信任：load(trust)。 */
  trust: { since: "s11", marks: "ProjectTrust" },
  /** 包：loadPackage / installPackage。 */
  packages: { since: "s12", marks: "loadPackage" },
} as const satisfies Record<string, FeatureRow>;

export type FeatureRow = { since: string; marks: string };
export type Feature = keyof typeof FEATURES;

/** 引入这个零件的那一课。 */
export const introducedIn = (feature: Feature): string => FEATURES[feature].since;

/** 一课的课号（`s04`）原样返回；一个零件（`"hooks"`）换成引入它的那一课。 */
export const lessonOf = (lessonOrFeature: string): string => (/^s\d\d$/.test(lessonOrFeature) ? lessonOrFeature : introducedIn(lessonOrFeature as Feature));

/** 这一课有没有这个零件（引入它的那一课及之后的每一课都有）。 */
export const has = (lesson: string, feature: Feature): boolean => lessonNumber(lesson) >= lessonNumber(introducedIn(feature));

/**
 * 表和 API 报告对得上吗：每一行的 marks 恰好在 since 那一课第一次出现。返回问题，空数组 = 对得上。
 * reports 是课号 → 报告，按课号排好。
 */
export function featureTableProblems(table: Readonly<Record<string, FeatureRow>>, reports: ReadonlyMap<string, ApiReport>): string[] {
  const problems: string[] = [];
  for (const [feature, { since, marks }] of Object.entries(table)) {
    const first = [...reports].find(([, report]) => marks in report)?.[0];
    if (first === undefined) problems.push(`${feature}: no API report has ${marks}`);
    else if (first !== since) problems.push(`${feature}: the table says ${since}, but ${marks} first appears in ${first}`);
  }
  return problems;
}
