// s01–s04 的场景：一轮对话、工具清单、事件流、工具循环。写法见 tooling/scenarios/data.ts。
import { type Step, call, delta, end, start, text, toolCall, toolUse } from "../screenplay.ts";
import type { Scenario } from "./shape.ts";

export const TURN_AND_LOOP: Scenario[] = [
  // ── s01 ──────────────────────────────────────────────────
  {
    id: "s01-demo",
    since: "s01",
    about: "s01 main()：两轮正常对话，再来一轮 provider 出错",
    provider: "fake",
    steps: [{ turn: "你好" }, { turn: "帮我看看这个项目" }, { turn: "这次让它崩一下" }],
  },
  {
    id: "s01-one-turn",
    since: "s01",
    about: "一轮对话恰好存下 user + assistant",
    provider: { responses: [text("好的")] },
    steps: [{ turn: "你好" }],
  },
  {
    id: "s01-provider-throws",
    since: "s01",
    about: "R4 ①：provider 抛错变成 error 助手消息，下一轮照常",
    provider: { responses: [[{ type: "throw", message: "boom 503" }], text("back")] },
    steps: [{ turn: "hi" }, { turn: "again" }],
  },

  // ── s02 ──────────────────────────────────────────────────
  {
    id: "s02-demo",
    since: "s02",
    about: "s02 main()：登记工具前后各问一次，再重复登记 read",
    provider: "fake",
    steps: [{ turn: "你有哪些工具？" }, { register: "read" }, { register: "ls" }, { turn: "现在呢，有哪些工具？" }, { register: "read" }],
  },
  {
    id: "s02-registry-tools",
    since: "s02",
    about: "工具清单取自 registry，新登记的下一轮就看得到；重名登记是错误",
    provider: { responses: [text("ok"), text("ok")] },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ turn: "1" }, { register: { name: "b", params: ["text"] } }, { turn: "2" }, { register: { name: "a", params: ["other"] } }],
  },

  // ── s03 ──────────────────────────────────────────────────
  {
    id: "s03-demo",
    since: "s03",
    about: "s03 main()：一次正常的流式回答，流断在半路，流没收尾",
    provider: "fake",
    tools: ["read", "ls"],
    steps: [{ turn: "你有哪些工具？" }, { turn: "说到一半断了" }, { turn: "结尾漏了" }],
  },
  {
    id: "s03-stream-pieces",
    since: "s03",
    about: "按顺序拼起流里的文字",
    provider: { responses: [[start, delta("一"), delta("二"), delta("三"), delta("四"), end("stop")]] },
    steps: [{ turn: "数数" }],
  },
  {
    id: "s03-stream-breaks",
    since: "s03",
    about: "流中途抛错：保留已收到的文字，接一行 error",
    provider: { responses: [[start, delta("半句"), { type: "throw", message: "connection reset" }]] },
    steps: [{ turn: "hi" }],
  },
  {
    id: "s03-no-message-end",
    since: "s03",
    about: "流没发 message_end 就结束",
    provider: { responses: [[start, delta("x")]] },
    steps: [{ turn: "hi" }],
  },
  {
    id: "s03-events-out-of-order",
    since: "s03",
    about: "事件乱序：没有 message_start、message_start 出现两次、message_end 之后还有文字",
    provider: { responses: [[delta("a"), start, delta("b"), start, end("stop"), delta("never"), end("error")]] },
    steps: [{ turn: "hi" }],
  },

  {
    id: "s03-invalid-events",
    since: "s03",
    about: "D26：事件不可信——stopReason 不在 StopReason 里、事件是 null、text 不是字符串，这条回答都以出错收尾并写明收到了什么；之后照常",
    provider: {
      responses: [
        [start, delta("ab"), end("length")],
        [start, null as unknown as Step],
        [start, delta("x"), { type: "text_delta", text: 42 } as unknown as Step, end("stop")],
        text("ok"),
      ],
    },
    steps: [{ turn: "1" }, { turn: "2" }, { turn: "3" }, { turn: "4" }],
  },

  // ── s04 ──────────────────────────────────────────────────
  {
    id: "s04-demo",
    since: "s04",
    about: "s04 main()：读不存在的文件、调不存在的工具、一直调工具撞上 maxTurns = 3",
    provider: "fake",
    tools: ["read", "ls"],
    steps: [{ turn: "src/app.ts 里写了什么？" }, { turn: "用 grep 搜一下 FILE" }, { loop: "一直列目录，别停", maxTurns: 3 }],
  },
  {
    id: "s04-two-calls",
    since: "s04",
    about: "一次回答要两个调用：助手消息（toolUse）后按调用顺序跟着各自的结果",
    provider: { responses: [toolUse("先查", call("c1", "a", { text: "x" }), call("c2", "a", { text: "y" })), text("查完了")] },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ turn: "go" }],
  },
  {
    id: "s04-tool-errors",
    since: "s04",
    about: "未知工具、参数缺失/不是字符串/多余、handler 抛错：都是 error 结果，循环继续",
    provider: {
      responses: [
        toolUse(
          "",
          call("c1", "nope", {}),
          call("c2", "read", {}),
          call("c3", "read", { path: 42 }),
          call("c4", "read", { path: "x", extra: "y" }),
          call("c5", "boom", {}),
          call("c6", "read", { path: "ok.txt" }),
        ),
        text("换个办法"),
      ],
    },
    tools: [{ name: "read", params: ["path"] }, { name: "boom", does: { throws: "kaboom" } }],
    steps: [{ turn: "go" }],
  },
  {
    id: "s04-stream-throws-after-tool",
    since: "s04",
    about: "R4 ①：工具之后 provider 流抛错，本轮以 error 助手消息结束",
    provider: { responses: [toolUse("", call("c1", "a", { text: "x" })), [{ type: "throw", message: "overloaded" }]] },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ turn: "go" }],
  },
  {
    id: "s04-max-turns",
    since: "s04",
    about: "R5：模型一直要工具，maxTurns 次请求后停下，存一条 max turns reached",
    provider: { responses: [], then: toolUse("", call("c{n}", "a", { text: "x" })) },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ loop: "loop", maxTurns: 3 }],
  },
  {
    id: "s04-calls-not-run",
    since: "s04",
    about: "D19：回答不以 toolUse 收尾，其中的调用不执行；message_end 之后的调用不执行",
    provider: {
      responses: [
        [toolCall(call("c1", "a", { text: "x" })), end("stop")],
        [start, toolCall(call("c2", "a", { text: "y" })), end("toolUse"), toolCall(call("c3", "a", { text: "late" }))],
        text("ok"),
      ],
    },
    tools: [{ name: "a", params: ["text"] }],
    steps: [{ turn: "first" }, { turn: "second" }],
  },
  {
    id: "s04-mid-turn-register",
    since: "s04",
    about: "D20：一轮之内工具执行时登记了新工具——s04–s05 下一次请求就看得到",
    provider: { responses: [toolUse("", call("c1", "add", {})), text("ok"), text("ok")] },
    tools: [{ name: "add", does: { registers: { name: "late", params: ["text"] }, returns: "added" } }],
    steps: [{ turn: "1" }, { turn: "2" }],
  },

  {
    id: "s04-untrusted-calls-and-results",
    since: "s04",
    about: "D26/D27：tool_call 缺 call，整条回答出错、前面的调用也不执行；handler 回数字、对象、undefined，各是一条说清楚的错误结果；之后照常",
    provider: {
      responses: [
        [start, toolCall(call("c1", "a", { text: "x" })), { type: "tool_call" } as unknown as Step, end("toolUse")],
        toolUse("", call("c2", "num", {}), call("c3", "obj", {}), call("c4", "none", {}), call("c5", "a", { text: "y" })),
        text("ok"),
      ],
    },
    tools: [
      { name: "a", params: ["text"] },
      { name: "num", does: { returnsValue: 42 } },
      { name: "obj", does: { returnsValue: { lines: 3 } } },
      { name: "none", does: { returnsValue: undefined } },
    ],
    steps: [{ turn: "first" }, { turn: "second" }],
  },
];
