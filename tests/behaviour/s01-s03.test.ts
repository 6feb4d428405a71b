// 行为测试（s01–s03：一轮对话（R4 ①）、core 的输出只经过 Output（R7）、工具清单、事件流、一直不回话的 provider）：每条写一次，对引入它的那一课及之后的每一课都跑。类型只增不够，后面的课还得「做得到」前面教过的事。
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { echoTool, gateFirstRequest, makeAgent, scriptedProvider } from "../../tooling/assemble-agent.ts";
import { type Feature, has } from "../../tooling/features.ts";
import type { TestAgent } from "../../tooling/lesson.ts";
import { type Script, call, text, toolUse } from "../../tooling/screenplay.ts";
import { forLessonsFrom } from "../support/for-lessons.ts";
import { fastExpect } from "../support/fast-expect.ts";
import { params } from "../properties/common.ts";

// ── s01 起：一轮对话，R4 ① ──────────────────────────────────
forLessonsFrom("s01", (id, load) => {
  it("一轮对话恰好存下 user + assistant 两条消息", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => text("好的"));
    const { agent, messages } = makeAgent(id, mod, { provider });
    const reply = await mod.runOneTurn(agent, "你好");
    expect(messages().map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(reply).toMatchObject({ role: "assistant", content: "好的", stopReason: "stop" });
  });

  it("R4 ①：provider 抛错不外抛，变成 stopReason 为 error 的助手消息并写回历史", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => [{ type: "throw", message: "boom 503" }]);
    const { agent, messages } = makeAgent(id, mod, { provider });
    const reply = await mod.runOneTurn(agent, "hi");
    expect(reply.stopReason).toBe("error");
    expect(reply.content).toContain("boom 503");
    expect(messages().at(-1)).toEqual(reply);
  });
});

// ── s01–s02：provider 一次交回整段文字（s03 起换成事件流，那时由 collectAssistantMessage 把关） ──
forLessonsFrom(
  "s01",
  (id, load) => {
    it("provider 回的不是文字（任意不是字符串的值）：按出错处理，回答是 error: provider must return a string, got <类型>，和出错一样存进历史", async () => {
      const mod = await load();
      await fc.assert(
        fc.asyncProperty(fc.anything().filter((v) => typeof v !== "string"), async (value) => {
          const { agent, messages } = makeAgent(id, mod, { provider: { complete: async () => value as unknown as string } });
          const reply = await mod.runOneTurn(agent, "hi");
          fastExpect(reply).toEqual({ role: "assistant", content: `error: provider must return a string, got ${typeof value}`, stopReason: "error" });
          fastExpect(messages()).toEqual([{ role: "user", content: "hi" }, reply]);
        }),
        params,
      );
    });
  },
  { before: "stream" },
);

// ── R7：core 碰不到进程的输出流，出错的路上也一样 ───────────────
/** console 的每个方法和 process.stdout / stderr 的 write，被碰一下记一笔（并且不真的输出）。 */
async function streamTouches(run: () => Promise<unknown>): Promise<string[]> {
  const touched: string[] = [];
  const methods = ["log", "info", "warn", "error", "debug", "trace", "dir", "table", "group", "groupCollapsed", "time", "timeEnd", "timeLog", "count", "assert"] as const;
  const spies = [
    ...methods.map((m) => vi.spyOn(console, m).mockImplementation(() => void touched.push(`console.${m}`))),
    vi.spyOn(process.stdout, "write").mockImplementation(() => (touched.push("process.stdout.write"), true)),
    vi.spyOn(process.stderr, "write").mockImplementation(() => (touched.push("process.stderr.write"), true)),
  ];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return touched;
}

/** 一轮对话会走的每条路，从引入它的课起：正常、provider 抛错、流断、没收尾、未知工具、工具抛错、上限、钩子抛错、扩展出错。 */
const R7_PATHS: { name: string; needs?: Feature; script: Script; setup?: (agent: TestAgent) => void }[] = [
  { name: "正常回答", script: () => text("看得见") },
  { name: "provider 抛错", script: () => [{ type: "throw", message: "boom 503" }] },
  { name: "流中途断了", needs: "stream", script: () => [{ type: "message_start" }, { type: "text_delta", text: "半" }, { type: "throw", message: "reset" }] },
  { name: "流没有收尾", needs: "stream", script: () => [{ type: "message_start" }, { type: "text_delta", text: "半" }] },
  { name: "未知工具、工具抛错", needs: "toolLoop", script: (_i, n) => (n === 0 ? toolUse("", call("c1", "nope", {}), call("c2", "boom", {})) : text("看得见")) },
  { name: "问满 maxTurns", needs: "toolLoop", script: () => toolUse("again", call("c1", "boom", {})) },
  {
    name: "钩子抛错",
    needs: "hooks",
    script: (_i, n) => (n === 0 ? toolUse("", call("c1", "boom", {})) : text("看得见")),
    setup: (agent) => {
      agent.hooks = { beforeToolCall: () => { throw new Error("before"); }, afterToolCall: () => { throw new Error("after"); } };
    },
  },
  {
    name: "扩展出错",
    needs: "extensions",
    script: () => text("看得见"),
    setup: (agent) => {
      agent.runtime?.use(() => { throw new Error("broken extension"); });
      agent.runtime?.use((api) => api.on("message", () => { throw new Error("broken handler"); }));
    },
  },
];

describe("R7：core 的输出只经过 Output，正常和出错的路上都碰不到 console 和 process.stdout / stderr", () => {
  forLessonsFrom("s01", (id, load) => {
    it("每条路上都没碰进程的输出流，这一轮的最后回答写到了 Output", async () => {
      const mod = await load();
      const boom = { spec: { name: "boom", description: "", input: {} }, handler: (): never => { throw new Error("tool exploded"); } };
      for (const path of R7_PATHS.filter((p) => p.needs === undefined || has(id, p.needs))) {
        for (const mode of has(id, "modes") ? (["PrintMode", "JsonMode"] as const) : ([undefined] as const)) {
          const { provider } = scriptedProvider(id, path.script);
          const out: string[] = [];
          const output = { log: (line: string) => void out.push(line) };
          const { agent, lines } = makeAgent(id, mod, { provider, tools: [boom], mode: mode === undefined ? undefined : new mod[mode](output) });
          path.setup?.(agent);
          let reply: { content: string } | undefined;
          const touched = await streamTouches(async () => void (reply = await mod.runOneTurn(agent, "hi")));
          const where = `${path.name}${mode ? `（${mode}）` : ""}`;
          expect(touched, where).toEqual([]);
          // 这一轮的最后回答（出错时就是那句错误）写到了 Output；JsonMode 写的是 JSON，所以比转义后的样子
          const answer = reply?.content ?? "";
          expect(answer, where).not.toBe("");
          expect([...lines, ...out].join("\n"), `${where}: 最后的回答到了 Output`).toContain(mode === "JsonMode" ? JSON.stringify(answer).slice(1, -1) : answer);
        }
      }
    });
  });
});

// ── s02 起：工具清单来自 registry ──────────────────────────
forLessonsFrom("tools", (id, load) => {
  it("发给 provider 的工具清单取自 registry，登记了新工具，下一轮就看得到", async () => {
    const mod = await load();
    const { provider, inputs } = scriptedProvider(id, () => text("ok"));
    const { agent } = makeAgent(id, mod, { provider, tools: [echoTool("a").tool] });
    await mod.runOneTurn(agent, "1");
    agent.registry?.register(echoTool("b").tool);
    await mod.runOneTurn(agent, "2");
    expect(inputs.map((input) => input.tools?.map((t) => t.name))).toEqual([["a"], ["a", "b"]]);
    expect(inputs[0].tools?.[0]).toEqual(echoTool("a").tool.spec);
  });

  it("同名工具登记两次是一个清楚的错误，原来的工具不被替换", async () => {
    const mod = await load();
    const registry = new mod.ToolRegistry();
    registry.register(echoTool("read").tool);
    const other = { ...echoTool("read").tool, spec: { ...echoTool("read").tool.spec, description: "impostor" } };
    expect(() => registry.register(other)).toThrow(/"read" is already registered/);
    expect(registry.getSpecs().map((s) => s.description)).toEqual(["read tool"]);
  });
});

// ── s02–s03：handler 登记了，还没人调（s02 README「老实说：handler 现在还没人调」） ─────────────
forLessonsFrom(
  "tools",
  (id, load) => {
    it("登记的工具只把说明发给模型，core 一次都不调 handler，模型提到工具名也一样", async () => {
      const mod = await load();
      const echo = echoTool("read", ["path"]);
      const { provider } = scriptedProvider(id, () => text('我要调 read，参数 {"path":"README.md"}'));
      const { agent, messages } = makeAgent(id, mod, { provider, tools: [echo.tool] });
      await mod.runOneTurn(agent, "读一下 README.md");
      expect(echo.calls).toEqual([]);
      expect(messages().map((m) => m.role)).toEqual(["user", "assistant"]);
    });
  },
  { before: "toolLoop" },
);

// ── s03 起：事件流 ─────────────────────────────────────────
forLessonsFrom("stream", (id, load) => {
  it("按顺序拼起流里的文字", async () => {
    const mod = await load();
    const pieces = ["一", "二", "三", "四"];
    const { provider } = scriptedProvider(id, () => [
      { type: "message_start" },
      ...pieces.map((t) => ({ type: "text_delta" as const, text: t })),
      { type: "message_end", stopReason: "stop" },
    ]);
    const { agent } = makeAgent(id, mod, { provider });
    expect((await mod.runOneTurn(agent, "数数")).content).toBe("一二三四");
  });

  it("流中途抛错：只得到一条 error 助手消息，保留已收到的文字，并说明原因", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => [{ type: "message_start" }, { type: "text_delta", text: "半句" }, { type: "throw", message: "connection reset" }]);
    const { agent, messages } = makeAgent(id, mod, { provider });
    const reply = await mod.runOneTurn(agent, "hi");
    expect(messages().filter((m) => m.role === "assistant")).toEqual([reply]);
    expect(reply).toEqual({ role: "assistant", content: "半句\nerror: connection reset", stopReason: "error" });
  });

  it("流没发 message_end 就结束：一条 error 助手消息，说明原因", async () => {
    const mod = await load();
    const { provider } = scriptedProvider(id, () => [{ type: "message_start" }, { type: "text_delta", text: "x" }]);
    const { agent } = makeAgent(id, mod, { provider });
    const reply = await mod.runOneTurn(agent, "hi");
    expect(reply).toMatchObject({ stopReason: "error", content: "x\nerror: stream ended without message_end" });
  });

  it("message_end 之后的事件不再读", async () => {
    const mod = await load();
    const reply = await mod.collectAssistantMessage(
      (async function* () {
        yield { type: "text_delta" as const, text: "a" };
        yield { type: "message_end" as const, stopReason: "stop" };
        yield { type: "text_delta" as const, text: "b" };
      })(),
    );
    expect(reply).toEqual({ role: "assistant", content: "a", stopReason: "stop" });
  });
});

// ── s03 起：一直不回话的 provider（第 11 类，D35） ────────────
forLessonsFrom("stream", (id, load) => {
  it("provider 一直不回话：这一轮就一直等（core 没法取消它，见 README）；它一回话就照常收尾，之后照常", async () => {
    const mod = await load();
    const { provider, release } = gateFirstRequest(scriptedProvider(id, (_input, n) => text(n === 0 ? "终于" : "ok")).provider);
    const { agent, messages } = makeAgent(id, mod, { provider });
    let settled = false;
    const first = mod.runOneTurn(agent, "hang").then((reply) => ((settled = true), reply));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled, "still waiting for the provider").toBe(false);
    expect(messages()).toEqual([{ role: "user", content: "hang" }]);
    release();
    expect(await first).toEqual({ role: "assistant", content: "终于", stopReason: "stop" });
    expect((await mod.runOneTurn(agent, "next")).content).toBe("ok");
    expect(messages().map((m) => m.content)).toEqual(["hang", "终于", "next", "ok"]);
  });
});

// ── s04 起：等的时候同一个 agent 再来一轮，被拒绝（D33） ────────
forLessonsFrom("oneTurn", (id, load) => {
  it("provider 一直不回话时同一个 agent 再来一轮：被拒绝，历史不动；它一回话，第一轮照常收尾", async () => {
    const mod = await load();
    const { provider, release } = gateFirstRequest(scriptedProvider(id, (_input, n) => text(n === 0 ? "终于" : "ok")).provider);
    const { agent, messages } = makeAgent(id, mod, { provider });
    const first = mod.runOneTurn(agent, "hang");
    expect(await mod.runOneTurn(agent, "meanwhile")).toEqual({ role: "assistant", content: "error: agent is already processing a prompt", stopReason: "error" });
    expect(messages(), "the refused turn stored nothing").toEqual([{ role: "user", content: "hang" }]);
    release();
    expect(await first).toEqual({ role: "assistant", content: "终于", stopReason: "stop" });
    expect(messages().map((m) => m.content)).toEqual(["hang", "终于"]);
  });
});
