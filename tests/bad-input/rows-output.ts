// 坏输入表：打印出去的东西——Output 和运行模式抛错、JSON 模式遇上怪文字、监听改了事件。
// 每行写明不可信的输入和预期的结构化结果（行的形状和写行的小函数在 ./harness.ts），tests/bad-input.test.ts 对每一课跑。
import { echoTool } from "../../tooling/assemble-agent.ts";
import { has } from "../../tooling/features.ts";
import type { RuntimeEventLike } from "../../tooling/lesson.ts";
import { assistant as a, call, text, toolUse, user as u } from "../../tooling/screenplay.ts";
import { type Row, FIRST, HOSTILE } from "./harness.ts";

export const ROWS_OUTPUT: Row[] = [
  // ── 输出抛错（R4 第 7 类，D29） ──
  {
    id: "output-throws",
    since: "safeOutput",
    input: "Output.log 抛错（终端关了）",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("still stored")] });
      await h.mod.runOneTurn(b.agent, "first");
      const broken = {
        log: () => {
          throw new Error("EPIPE");
        },
      };
      b.agent.output = broken;
      if (has(h.id, "modes")) b.agent.mode = new h.mod.PrintMode(broken);
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, messages: b.all() };
    },
    expected: { reply: a("still stored"), messages: [...FIRST, u("second"), a("still stored")] },
  },
  {
    id: "render-throws",
    since: "s10",
    input: "运行模式的 render 抛错",
    async run(h) {
      const b = h.agent({ responses: [text("ok"), text("still stored")] });
      await h.mod.runOneTurn(b.agent, "first");
      b.agent.mode = {
        render: () => {
          throw new Error("screen gone");
        },
      };
      const reply = await h.mod.runOneTurn(b.agent, "second");
      return { reply, state: b.state() };
    },
    expected: {
      reply: a("still stored"),
      state: { messages: [...FIRST, u("second"), a("still stored")], tools: [], resources: [], errors: ["error: mode failed to render: screen gone"] },
    },
  },

  // ── JSON 模式遇上怪文字（s10 起，D12） ──
  {
    id: "json-hostile",
    since: "s10",
    input: "助手文字和工具结果里有换行、引号、控制字符、U+2028/2029、孤立代理项、1 MB 长文",
    async run(h) {
      const out: string[] = [];
      const results = HOSTILE.map((_, i) => call(`c${i}`, "echo", { text: HOSTILE[i] }));
      const b = h.agent({ responses: [toolUse(HOSTILE[0], ...results), text(HOSTILE.join("|"))], tools: [echoTool("echo").tool] });
      b.agent.mode = new h.mod.JsonMode({ log: (line) => void out.push(line) });
      const events: RuntimeEventLike[] = [];
      b.agent.runtime?.use((api) => {
        api.on("message", (e) => void events.push(e));
        api.on("done", (e) => void events.push(e));
      });
      await h.mod.runOneTurn(b.agent, "first");
      const raw = out.join("\n");
      return {
        lines: raw.split("\n").length,
        lineTerminators: [...raw.matchAll(/[\r\u2028\u2029]/g)].map((m) => m[0].codePointAt(0)),
        parsed: raw.split("\n").map((line) => JSON.parse(line) as unknown),
        messages: b.all().length,
        sameAsEvents: JSON.stringify(raw.split("\n").map((line) => JSON.parse(line) as unknown)) === JSON.stringify(events),
      };
    },
    expected: {
      lines: HOSTILE.length + 3,
      lineTerminators: [],
      parsed: [
        { type: "message", content: HOSTILE[0] },
        ...HOSTILE.map((t) => ({ type: "message", content: `echo:${t}` })),
        { type: "message", content: HOSTILE.join("|") },
        { type: "done" },
      ],
      messages: HOSTILE.length + 3,
      sameAsEvents: true,
    },
  },

  // ── 监听改不了打印的东西（R4 第 10 类，s10 起，D34） ──
  {
    id: "listener-rewrites-event",
    since: "s10",
    input: "监听把收到的事件内容改掉",
    async run(h) {
      const out: string[] = [];
      const b = h.agent({ responses: [text("the real answer")] });
      b.agent.mode = new h.mod.PrintMode({ log: (line) => void out.push(line) });
      b.agent.runtime?.use((api) =>
        api.on("message", (e) => {
          if (e.type === "message") e.content = "HACKED";
        }),
      );
      await h.mod.runOneTurn(b.agent, "first");
      return { out };
    },
    expected: { out: ["the real answer"] },
  },
];
