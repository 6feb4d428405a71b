// 宪法的数据版（EVOLUTION.md §1 的 U1 清单和 U2 名单、§2 类型字典、§3 每课新增的名字），检查它的规则在
// ./check.ts，tests/constitution.test.ts 把两者用在每一课上。键和值逐字照 tooling/api/extract.ts 打印的写法（见 tests/api/sNN.json）。
// 这份数据和 EVOLUTION.md 不一致时，以修文档或修数据为准，不许放宽检查。
import { LESSONS } from "../course.ts";

// ── §3 十二节累积演进主表 ─────────────────────────────────
/**
 * §3「本节新增零件」写成名字，一课一行。它们总算进「后面的课才有的名字」（tooling/names.ts，连同 API 报告和下面的 DICTIONARY）：
 * 哪怕这一课的代码恰好用了同一个词（比如一个局部的 `run`），也照样算后面的课的名字。
 */
export const LESSON_NAMES: Readonly<Record<string, readonly string[]>> = {
  s01: ["AgentState", "UserMessage", "AssistantMessage", "AgentMessage", "StopReason", "ProviderMessage", "ProviderInput", "Provider", "runOneTurn", "Output"],
  s02: ["ToolSpec", "ToolHandler", "Tool", "ToolRegistry", "register", "getSpecs", "buildProviderInput"],
  s03: ["stream", "ProviderEvent", "collectAssistantMessage", "message_start", "text_delta", "message_end"],
  s04: ["ToolCall", "ToolResultMessage", "tool_call", "toolUse", "run", "runEventedToolLoop", "maxTurns"],
  s05: ["ToolHooks", "beforeToolCall", "afterToolCall", "BeforeToolCallResult", "executeToolCall"],
  s06: ["TurnSnapshot", "createTurnSnapshot", "model"],
  s07: ["SessionTree", "SessionEntry", "append", "moveTo", "currentPath", "allEntries", "parentId"],
  s08: ["ContextResource", "ResourceLoader", "load", "buildSystemPrompt", "systemPrompt"],
  s09: ["Extension", "ExtensionAPI", "ExtensionRuntime", "Command", "RuntimeEvent", "registerTool", "registerCommand"],
  s10: ["RuntimeMode", "PrintMode", "JsonMode", "render"],
  s11: ["ProjectTrust", "trust"],
  s12: ["PackageManifest", "Package", "LoadedPackage", "loadPackage", "pick"],
};

// ── U1：唯一允许的破坏性变化 ─────────────────────────────
export type Upgrade = {
  lesson: string;
  key: string;
  from: string;
  to: string | null; // null：这个键删掉了
  rule: "U1";
  why: string;
};

/**
 * §1「U1 受控升级清单」，逐字写死。从那一课起，被升级的声明必须带 `@upgraded sNN (U1)`；
 * 课已经有了、变化却没发生的一条报 stale。
 */
export const U1_UPGRADES: Upgrade[] = [
  {
    lesson: "s03",
    key: "Provider.complete",
    from: "(input: ProviderInput) => Promise<string>",
    to: null,
    rule: "U1",
    why: "provider 输出形态从一次性变成流式：complete 换成 stream，无法并存（stream 本身只是新增）",
  },
  {
    lesson: "s07",
    key: "AgentState.messages",
    from: ": AgentMessage[]",
    to: ": SessionTree",
    rule: "U1",
    why: "历史从线性数组升级为可分支的树；currentPath() 仍产出 AgentMessage[]",
  },
  {
    lesson: "s11",
    key: "ResourceLoader#load",
    from: "() => ContextResource[]",
    to: "(trust: ProjectTrust) => ContextResource[]",
    rule: "U1",
    why: "加信任参数过滤资源（D8：参数必填）",
  },
];

// ── U2：同名唯一 ─────────────────────────────────────────
/** 每课的文件里各只定义一次，之后每一课的键都和第一次出现时一样（U1 的升级除外）。 */
export const U2_UNIQUE = ["ResourceLoader", "RuntimeEvent", "Tool", "Output"];

// ── §2 核心类型字典 ───────────────────────────────────────
/** 只查有没有：字典点了这个成员的名，没写死它的签名。 */
export const ANY = "*";

/**
 * 字典之外的成员，每个都有一条设计决策撑着（EVOLUTION.md §9「决策」）。只查有没有；从 since 那一课起，
 * 和字典里的成员一样非有不可。
 */
export const EXTRAS: Record<string, { since: string; decision: string }> = {
  "SessionEntry.toolCallId": { since: "s07", decision: "D7" },
  "SessionEntry.stopReason": { since: "s07", decision: "D7" },
  "ExtensionRuntime#emit": { since: "s09", decision: "D10" },
  "ExtensionRuntime#runCommand": { since: "s09", decision: "D10" },
  "ExtensionRuntime#errors": { since: "s09", decision: "D10" },
  "ExtensionRuntime#hasCommand": { since: "s12", decision: "D13" },
};

/**
 * §2 逐课写：每个字典类型，课 → 它在这一课新增（或改掉）的键。值是 null 的删掉这个键（只有 U1 删掉的 Provider.complete）。
 */
const HISTORY: Record<string, Record<string, Record<string, string | null>>> = {
  // —— 消息 ——
  StopReason: {
    s01: { StopReason: "export type", 'StopReason|"stop"': '"stop"', 'StopReason|"error"': '"error"' },
    s04: { 'StopReason|"toolUse"': '"toolUse"' },
  },
  UserMessage: {
    s01: { UserMessage: "export type", "UserMessage.role": ': "user"', "UserMessage.content": ": string" },
  },
  AssistantMessage: {
    s01: {
      AssistantMessage: "export type",
      "AssistantMessage.role": ': "assistant"',
      "AssistantMessage.content": ": string",
      "AssistantMessage.stopReason": ": StopReason",
    },
  },
  ToolResultMessage: {
    s04: {
      ToolResultMessage: "export type",
      "ToolResultMessage.role": ': "toolResult"',
      "ToolResultMessage.toolCallId": ": string",
      "ToolResultMessage.content": ": string",
    },
  },
  AgentMessage: {
    s01: {
      AgentMessage: "export type",
      "AgentMessage|UserMessage": "UserMessage",
      "AgentMessage|AssistantMessage": "AssistantMessage",
      "AgentMessage.role": ': "assistant" | "user"',
      "AgentMessage.content": ": string",
    },
    s04: {
      "AgentMessage|ToolResultMessage": "ToolResultMessage",
      "AgentMessage.role": ': "assistant" | "toolResult" | "user"',
    },
  },
  // —— core 状态 ——
  AgentState: {
    s01: { AgentState: "export type", "AgentState.messages": ": AgentMessage[]" },
    s06: { "AgentState.model": ": string" },
    s07: { "AgentState.messages": ": SessionTree" }, // U1
  },
  // —— Provider 对外形态 ——
  ProviderMessage: {
    s01: {
      ProviderMessage: "export type",
      "ProviderMessage.role": ': "assistant" | "user"',
      "ProviderMessage.content": ": string",
    },
    s04: {
      "ProviderMessage.role": ': "assistant" | "toolResult" | "user"',
      'ProviderMessage|[role="assistant" | "user"]': "object",
      'ProviderMessage[role="assistant" | "user"].role': ': "assistant" | "user"',
      'ProviderMessage[role="assistant" | "user"].content': ": string",
      'ProviderMessage|[role="toolResult"]': "object",
      'ProviderMessage[role="toolResult"].role': ': "toolResult"',
      'ProviderMessage[role="toolResult"].toolCallId': ": string",
      'ProviderMessage[role="toolResult"].content': ": string",
    },
  },
  ProviderInput: {
    s01: { ProviderInput: "export type", "ProviderInput.messages": ": ProviderMessage[]" },
    s02: { "ProviderInput.tools": ": ToolSpec[]" },
    s08: { "ProviderInput.systemPrompt": ": string" },
  },
  Provider: {
    s01: { Provider: "export interface", "Provider.complete": "(input: ProviderInput) => Promise<string>" },
    s03: {
      "Provider.complete": null, // U1
      "Provider.stream": "(input: ProviderInput) => AsyncGenerator<ProviderEvent, any, any>",
    },
  },
  // —— 工具契约 ——
  ToolSpec: {
    s02: {
      ToolSpec: "export type",
      "ToolSpec.name": ": string",
      "ToolSpec.description": ": string",
      "ToolSpec.input": ": Record<string, string>",
    },
  },
  ToolHandler: {
    s02: { ToolHandler: "export type", "ToolHandler()": "(input: Record<string, string>) => string" },
  },
  Tool: {
    s02: { Tool: "export type", "Tool.spec": ": ToolSpec", "Tool.handler": ": ToolHandler" },
  },
  ToolCall: {
    s04: {
      ToolCall: "export type",
      "ToolCall.id": ": string",
      "ToolCall.name": ": string",
      "ToolCall.input": ": Record<string, string>",
    },
  },
  ToolRegistry: {
    s02: {
      ToolRegistry: "export class",
      "ToolRegistry.constructor": ANY,
      "ToolRegistry#register": "(tool: Tool) => void",
      "ToolRegistry#getSpecs": "() => ToolSpec[]",
    },
    s04: { "ToolRegistry#run": "(call: ToolCall) => string" },
  },
  // —— Provider 事件流 ——
  ProviderEvent: {
    s03: {
      ProviderEvent: "export type",
      "ProviderEvent.type": ': "message_end" | "message_start" | "text_delta"',
      'ProviderEvent|[type="message_start"]': "object",
      'ProviderEvent[type="message_start"].type': ': "message_start"',
      'ProviderEvent|[type="text_delta"]': "object",
      'ProviderEvent[type="text_delta"].type': ': "text_delta"',
      'ProviderEvent[type="text_delta"].text': ": string",
      'ProviderEvent|[type="message_end"]': "object",
      'ProviderEvent[type="message_end"].type': ': "message_end"',
      'ProviderEvent[type="message_end"].stopReason': ": StopReason",
    },
    s04: {
      "ProviderEvent.type": ': "message_end" | "message_start" | "text_delta" | "tool_call"',
      'ProviderEvent|[type="tool_call"]': "object",
      'ProviderEvent[type="tool_call"].type': ': "tool_call"',
      'ProviderEvent[type="tool_call"].call': ": ToolCall",
    },
  },
  // —— Hook ——
  BeforeToolCallResult: {
    s05: {
      BeforeToolCallResult: "export type",
      "BeforeToolCallResult.type": ': "allow" | "block"',
      'BeforeToolCallResult|[type="allow"]': "object",
      'BeforeToolCallResult[type="allow"].type': ': "allow"',
      'BeforeToolCallResult|[type="block"]': "object",
      'BeforeToolCallResult[type="block"].type': ': "block"',
      'BeforeToolCallResult[type="block"].reason': ": string",
    },
  },
  ToolHooks: {
    s05: {
      ToolHooks: "export type",
      "ToolHooks.beforeToolCall": "?: (call: ToolCall) => BeforeToolCallResult",
      "ToolHooks.afterToolCall": "?: (call: ToolCall, result: string) => string",
    },
  },
  executeToolCall: {
    s05: {
      executeToolCall: "export function (registry: ToolRegistry, hooks: ToolHooks, call: ToolCall) => ToolResultMessage",
    },
  },
  // —— Turn 快照 ——
  TurnSnapshot: {
    s06: {
      TurnSnapshot: "export type",
      "TurnSnapshot.messages": ": ProviderMessage[]",
      "TurnSnapshot.tools": ": ToolSpec[]",
    },
    s08: { "TurnSnapshot.systemPrompt": ": string" },
  },
  createTurnSnapshot: {
    s06: { createTurnSnapshot: "export function (input: ProviderInput) => TurnSnapshot" },
  },
  // —— 会话树 ——
  SessionEntry: {
    s07: {
      SessionEntry: "export type",
      "SessionEntry.id": ": string",
      "SessionEntry.parentId": ": string | null",
      "SessionEntry.role": ': "assistant" | "toolResult" | "user"',
      "SessionEntry.content": ": string",
    },
  },
  SessionTree: {
    s07: {
      SessionTree: "export class",
      "SessionTree.constructor": ANY,
      "SessionTree#append": ANY, // §2 没写死参数类型：append(msg)
      "SessionTree#moveTo": "(id: string) => void",
      "SessionTree#currentPath": "() => AgentMessage[]",
      "SessionTree#allEntries": "() => SessionEntry[]",
    },
  },
  // —— 上下文资源 ——
  ContextResource: {
    s08: {
      ContextResource: "export type",
      "ContextResource.kind": ': "agents" | "prompt" | "skill"',
      "ContextResource.name": ": string",
      "ContextResource.content": ": string",
    },
  },
  ResourceLoader: {
    s08: {
      ResourceLoader: "export class",
      "ResourceLoader.constructor": "new (resources: ContextResource[]) => ResourceLoader",
      "ResourceLoader#load": "() => ContextResource[]",
    },
    s11: { "ResourceLoader#load": "(trust: ProjectTrust) => ContextResource[]" }, // U1
  },
  buildSystemPrompt: {
    s08: { buildSystemPrompt: "export function (resources: ContextResource[]) => string" },
  },
  // —— 扩展运行时 ——
  Command: {
    s09: { Command: "export type", "Command.name": ": string", "Command.run": ": () => string" },
  },
  RuntimeEvent: {
    s09: {
      RuntimeEvent: "export type",
      "RuntimeEvent.type": ': "done" | "message"',
      'RuntimeEvent|[type="message"]': "object",
      'RuntimeEvent[type="message"].type': ': "message"',
      'RuntimeEvent[type="message"].content': ": string",
      'RuntimeEvent|[type="done"]': "object",
      'RuntimeEvent[type="done"].type': ': "done"',
    },
  },
  ExtensionAPI: {
    s09: {
      ExtensionAPI: "export type",
      "ExtensionAPI.on": '(type: "done" | "message", handler: (e: RuntimeEvent) => void) => void',
      "ExtensionAPI.registerTool": "(tool: Tool) => void",
      "ExtensionAPI.registerCommand": "(cmd: Command) => void",
    },
  },
  Extension: {
    s09: { Extension: "export type", "Extension()": "(api: ExtensionAPI) => void" },
  },
  ExtensionRuntime: {
    s09: {
      ExtensionRuntime: "export class",
      "ExtensionRuntime.constructor": ANY,
      "ExtensionRuntime#use": "(ext: Extension) => void",
    },
  },
  // —— 输出抽象 ——
  Output: {
    s01: { Output: "export type", "Output.log": "(line: string) => void" },
  },
  RuntimeMode: {
    s10: { RuntimeMode: "export type", "RuntimeMode.render": "(events: RuntimeEvent[]) => void" },
  },
  PrintMode: {
    s10: {
      PrintMode: "export class",
      "PrintMode.constructor": ANY,
      "PrintMode#render": "(events: RuntimeEvent[]) => void",
    },
  },
  JsonMode: {
    s10: {
      JsonMode: "export class",
      "JsonMode.constructor": ANY,
      "JsonMode#render": "(events: RuntimeEvent[]) => void",
    },
  },
  // —— 信任 ——
  ProjectTrust: {
    s11: { ProjectTrust: "export type", 'ProjectTrust|"trusted"': '"trusted"', 'ProjectTrust|"untrusted"': '"untrusted"' },
  },
  // —— 能力分发 ——
  PackageManifest: {
    s12: {
      PackageManifest: "export type",
      "PackageManifest.name": ": string",
      "PackageManifest.tools": ": string[]",
      "PackageManifest.commands": ": string[]",
      "PackageManifest.resources": ": string[]",
    },
  },
  Package: {
    s12: { Package: "export type", "Package.manifest": ": PackageManifest", "Package.contents": ": Record<string, string>" },
  },
  LoadedPackage: {
    s12: {
      LoadedPackage: "export type",
      "LoadedPackage.name": ": string",
      "LoadedPackage.tools": ": Record<string, string>",
      "LoadedPackage.commands": ": Record<string, string>",
      "LoadedPackage.resources": ": Record<string, string>",
    },
  },
  loadPackage: {
    s12: { loadPackage: "export function (pkg: Package) => LoadedPackage" },
  },
};

/**
 * 整张表：课 → 字典类型 → 该有的键和逐字的值（值是 ANY 的只查有没有）。由上面的 HISTORY 逐课叠出来，
 * 每处变化只写一次，写在发生变化的那一课；EXTRAS 另外叠在上面（./check.ts 的 checkDictionary）。
 */
export const DICTIONARY: Record<string, Record<string, Record<string, string>>> = Object.fromEntries(
  LESSONS.map((lesson) => {
    const types: Record<string, Record<string, string>> = {};
    for (const [type, steps] of Object.entries(HISTORY)) {
      const introduced = Object.keys(steps).filter((step) => step <= lesson).sort();
      if (introduced.length === 0) continue;
      const keys: Record<string, string> = {};
      for (const step of introduced) {
        for (const [key, value] of Object.entries(steps[step] ?? {})) {
          if (value === null) delete keys[key];
          else keys[key] = value;
        }
      }
      types[type] = keys;
    }
    return [lesson, types];
  }),
);
