// 场景数据 → 课里的零件：剧本 provider 的剧本、工具、钩子、扩展。数据只说「要什么」，这里按这一课的模块造出来。
import { pushMessage } from "../assemble-agent.ts";
import type { Call, ExtensionApiLike, Hooks, Input, LessonModule, TestAgent, ToolLike } from "../lesson.ts";
import { type Step, text } from "../screenplay.ts";
import type { ExtensionData, HooksData, ScriptData, ToolData } from "./shape.ts";

/** 剧本 provider 的剧本：第 n 次请求回 responses[n]；之后每次回 then（调用 id 里的 {n} 换成请求序号），没有 then 就回 "(script ended)"。 */
export function scriptFor(data: ScriptData): (input: Input, n: number) => Step[] {
  return (_input, n) => {
    const fixed = data.responses[n];
    if (fixed !== undefined) return structuredClone(fixed);
    if (data.then === undefined) return text("(script ended)");
    return structuredClone(data.then).map((step) =>
      step.type === "tool_call" ? { ...step, call: { ...step.call, id: step.call.id.replace("{n}", String(n)) } } : step,
    );
  };
}

/** 造零件时要知道的：哪一课、它的模块、正在跑的 agent（工具执行时才取，那时它已经拼好了）。 */
export type Ctx = { id: string; mod: LessonModule; agent: () => TestAgent };

export function buildTool(ctx: Ctx, data: ToolData): ToolLike {
  const params = data.params ?? [];
  const does = data.does;
  return {
    spec: { name: data.name, description: `${data.name} tool`, input: Object.fromEntries(params.map((p) => [p, p])) },
    handler: (input) => {
      if (does === undefined) return `${data.name}:${params.map((p) => input[p]).join(",")}`;
      if ("throws" in does) throw new Error(does.throws);
      if ("returnsValue" in does) return does.returnsValue as string;
      if ("registers" in does) ctx.agent().registry?.register(buildTool(ctx, does.registers));
      if ("appends" in does) pushMessage(ctx.agent(), does.appends);
      return does.returns;
    },
  };
}

export function resolveTool(ctx: Ctx, tool: string | ToolData): ToolLike {
  if (typeof tool !== "string") return buildTool(ctx, tool);
  const found = ctx.mod.createDemoTools().find((t) => t.spec.name === tool);
  if (found === undefined) throw new Error(`${ctx.id} has no demo tool "${tool}"`);
  return found;
}

export function buildHooks(ctx: Ctx, data: HooksData): Hooks {
  const gate = data.gate === true ? ctx.mod.createPermissionGate() : {};
  const hooks: Hooks = {};
  hooks.beforeToolCall = (call: Call) => {
    if (data.beforeThrows !== undefined) throw new Error(data.beforeThrows);
    if (data.beforeReturns !== undefined && Object.hasOwn(data.beforeReturns, call.name)) return data.beforeReturns[call.name] as { type: "allow" };
    const reason = data.block?.[call.name];
    if (reason !== undefined) return { type: "block", reason };
    return gate.beforeToolCall?.(call) ?? { type: "allow" };
  };
  hooks.afterToolCall = (call: Call, result: string) => {
    if (data.afterThrows !== undefined) throw new Error(data.afterThrows);
    if ("afterReturns" in data) return data.afterReturns as string;
    const gated = gate.afterToolCall?.(call, result) ?? result;
    return data.upper === true ? gated.toUpperCase() : gated;
  };
  return hooks;
}

export function buildExtension(ctx: Ctx, data: ExtensionData): (api: ExtensionApiLike) => void {
  if (data === "stats") return ctx.mod.statsExtension;
  if (data === "broken") return ctx.mod.brokenExtension;
  const ext = (api: ExtensionApiLike): void => {
    for (const tool of data.tools ?? []) api.registerTool(buildTool(ctx, tool));
    for (const [name, command] of Object.entries(data.commands ?? {})) {
      api.registerCommand({
        name,
        run: () => {
          if (typeof command !== "string") throw new Error(command.throws);
          return command;
        },
      });
    }
    const listenerThrows = data.listenerThrows;
    if (listenerThrows !== undefined) {
      api.on("message", () => {
        throw new Error(listenerThrows);
      });
    }
    if (data.throws !== undefined) throw new Error(data.throws);
  };
  Object.defineProperty(ext, "name", { value: data.name });
  return ext;
}
