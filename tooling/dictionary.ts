// EVOLUTION.md §2, the type dictionary, lesson by lesson: for each dictionary type, the keys it gains (or changes) in
// each lesson, written exactly as tooling/api/extract.ts prints them. tooling/constitution.ts folds it into DICTIONARY.

/** Presence only: the dictionary names the member but not its exact signature. */
export const ANY = "*";

/**
 * For each dictionary type: lesson → keys it gains (or changes) in that lesson.
 * `null` removes a key (only the U1 removal of Provider.complete).
 */
export const HISTORY: Record<string, Record<string, Record<string, string | null>>> = {
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
      "SessionTree#append": ANY, // §2 leaves the parameter type open: append(msg)
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
