// 性质测试（fast-check），R4 每道边界的第 3 类：工具契约在运行时也算数（handler s04 起，命令 s09 起）。
// fast-check 随便编整类的不可信输入，看循环守不守得住承诺；失败时把反例缩到最小再打印（Counterexample、seed/path）。共同的断言：
// runOneTurn 一定 resolve、历史完好（tests/support/hostile.ts 的 expectSoundHistory），之后再跑一轮普通对话照样成功（../common.ts 的 ordinaryTurnAfter）。
import fc from "fast-check";
import { it } from "vitest";
import { fastExpect } from "../../support/fast-expect.ts";
import { echoTool, makeAgent, scriptedProvider } from "../../../tooling/assemble-agent.ts";
import { has } from "../../../tooling/features.ts";
import type { ToolLike } from "../../../tooling/lesson.ts";
import { text, toolUse } from "../../../tooling/screenplay.ts";
import { forLessonsFrom } from "../../support/for-lessons.ts";
import { expectSoundHistory, returnedArb, settle } from "../../support/hostile.ts";
import { BOUNDARY_RUNS, ordinaryTurnAfter, watchUnhandled } from "../common.ts";

// ToolHandler 同步、回文字（D27）：回了别的（数字、对象、undefined、Promise……）就是一条 "error: tool "x" returned …, expected a string"，
// 它要是个会 reject 的 Promise，失败也被接住；以后每一轮都不受影响。参数嵌得再深也只是一条参数错误。
forLessonsFrom("toolLoop", (id, load) => {
  it("R4 第 3 类：handler 回任何值：文字原样是结果，别的变成一条说清楚的错误结果；没有没人接的 reject；之后照常", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(returnedArb, async (h) => {
        let returned: unknown;
        const tool: ToolLike = {
          spec: { name: "h", description: "h", input: {} },
          handler: () => {
            returned = h.make();
            return returned as string;
          },
        };
        const { provider } = scriptedProvider(id, (_i, k) => (k === 0 ? toolUse("", { id: "c1", name: "h", input: {} }) : text("done")));
        const { agent, messages } = makeAgent(id, mod, { provider, tools: [tool] });
        const watch = watchUnhandled();
        const reply = await mod.runOneTurn(agent, "go");
        await settle();
        fastExpect(watch.stop(), "every Promise the core did not wait for had its failure caught").toEqual([]);
        const results = messages().filter((m) => m.role === "toolResult");
        fastExpect(results.map((m) => m.toolCallId)).toEqual(["c1"]);
        if (typeof returned === "string") fastExpect(results[0].content).toBe(returned);
        else fastExpect(results[0].content).toMatch(/^error: tool "h" returned .*, expected a string$/s);
        fastExpect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
        expectSoundHistory(id, messages());
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      BOUNDARY_RUNS,
    );
  });

  it("R4 第 3 类：参数嵌得很深（合法的 JSON），或者带着 BigInt、循环引用：只是一条参数错误，日志行也写得出来", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30_000 }), fc.constantFrom("text", "extra"), fc.constantFrom("deep", "bigint", "cyclic"), async (depth, key, shape) => {
        let value: unknown = "bottom";
        if (shape === "deep") for (let i = 0; i < depth; i++) value = { a: value };
        else if (shape === "bigint") value = { n: 10n };
        else {
          const o: Record<string, unknown> = {};
          o.self = o;
          value = o;
        }
        const echo = echoTool("echo");
        const { provider } = scriptedProvider(id, (_i, k) => (k === 0 ? toolUse("", { id: "c1", name: "echo", input: { [key]: value } }) : text("done")));
        const { agent, messages, lines } = makeAgent(id, mod, { provider, tools: [echo.tool] });
        const reply = await mod.runOneTurn(agent, "go");
        fastExpect(reply).toEqual({ role: "assistant", content: "done", stopReason: "stop" });
        fastExpect(messages().filter((m) => m.role === "toolResult").map((m) => m.content)).toEqual([
          key === "text"
            ? 'error: invalid arguments for tool "echo": argument "text" must be a string'
            : 'error: invalid arguments for tool "echo": argument "text" is missing; unexpected argument "extra"',
        ]);
        fastExpect(echo.calls).toEqual([]);
        if (!has(id, "modes")) fastExpect(lines.some((l) => l.startsWith("  → echo("))).toBe(true);
        await ordinaryTurnAfter(id, mod, agent, messages);
      }),
      { ...BOUNDARY_RUNS, numRuns: Math.min(BOUNDARY_RUNS.numRuns, 20) },
    );
  });
});

// 命令也一样（s09 起，D27）：runCommand 回的不是文字，就是一句 error: command "c" returned …, expected a string（s09 README），
// Promise 的失败被接住；回的是文字就原样交回。
forLessonsFrom("extensions", (_id, load) => {
  it("R4 第 3 类：命令回任何值：文字原样交回，别的变成 `error: command \"c\" returned <describeValue>, expected a string`；没有没人接的 reject", async () => {
    const mod = await load();
    await fc.assert(
      fc.asyncProperty(returnedArb, async (h) => {
        const runtime = new mod.ExtensionRuntime(new mod.ToolRegistry());
        let returned: unknown;
        runtime.use((api) =>
          api.registerCommand({
            name: "c",
            run: () => {
              returned = h.make();
              return returned as string;
            },
          }),
        );
        const watch = watchUnhandled();
        const result = runtime.runCommand("c");
        await settle();
        fastExpect(watch.stop(), "every Promise the core did not wait for had its failure caught").toEqual([]);
        fastExpect(result).toBe(typeof returned === "string" ? returned : `error: command "c" returned ${mod.describeValue(returned)}, expected a string`);
        fastExpect(runtime.errors, "a command's result is not an extension error").toEqual([]);
      }),
      BOUNDARY_RUNS,
    );
  });
});
