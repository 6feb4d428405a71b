// The constitution's rules as DATA (EVOLUTION.md §1 U1/U2, §2 type dictionary, §3 lesson table).
// Checked by tests/constitution.test.ts through tooling/rules.ts. Keys and values are written exactly
// as tooling/api/extract.ts prints them (see tests/api/sNN.json).
import { LESSONS } from "./course.ts";
import { ANY, HISTORY } from "./dictionary.ts";

// ── §3 lesson table ──────────────────────────────────────
/**
 * EVOLUTION.md §3 "本节新增零件" as names, per lesson. Always part of the later-lesson vocabulary
 * (tooling/names.ts, together with the API reports and the DICTIONARY below). These names are
 * flagged even when the lesson's code happens to use the same word (e.g. a local `run`).
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

// ── U1: the only breaking changes allowed ─────────────────
export type Upgrade = {
  lesson: string;
  key: string;
  from: string;
  to: string | null; // null: the key is removed
  rule: "U1";
  why: string;
};

/**
 * Exact list (§1 "U1 受控升级清单"). The owner declaration must carry `@upgraded sNN (U1)` from that
 * lesson on. An entry whose lesson exists but whose change does not happen is "stale".
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

// ── U2: one definition, one shape ─────────────────────────
/** Each is defined once per lesson file and keeps the same keys in every later lesson (modulo U1). */
export const U2_UNIQUE = ["ResourceLoader", "RuntimeEvent", "Tool", "Output"];

// ── §2 type dictionary ────────────────────────────────────
// The history, type by type and lesson by lesson, is in tooling/dictionary.ts.
export { ANY };

/**
 * Members beyond the dictionary, each justified by a design decision (EVOLUTION.md "决策").
 * Presence only; from `since` on they are required like dictionary members.
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
 * The whole table: lesson → dictionary type → exact expected keys (value `ANY` = presence only).
 * Folded from HISTORY so each change is written once, at the lesson that makes it. EXTRAS come on top.
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
