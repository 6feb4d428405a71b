// mini Pi 和 Pi 1.6.0 在消息轨迹上的已列出差异（循环剧本的历史、请求、调用方，以及机制剧本里跑过一轮的历史）：
// 每行写明两边各是什么样、为什么，以及怎么认出它（reconcile）。对照时只有列出的差异可以被消掉；表外的任何不同都是失败，
// 表里某行没有剧本用到也是失败（过期）。比事实的行在 fact-rows.ts，DIFFERENCES.md 由这两张表生成（render-doc.ts）。

import { describeEntry, type FidelityDifference, rewritePairs } from "../compare.ts";
import { MECHANISM_SCENARIOS } from "../mechanisms.ts";
import { AFTER_HOOK_SUFFIX, ASYNC_BLOCK_REASON, CALLER, callerLine, LOOP_SCENARIOS } from "../scenarios.ts";
import { afterHookFailed, beforeHookFailed, callerSaw, canonicalValidation, errorResults, miniValidationProblems, okVersusError, piValidationProblems } from "./trace-rewrites.ts";

/** §4：达到上限时课程追加的那条助手消息，和上限的默认值。 */
const MAX_TURNS_TEXT = "max turns reached";
const MINI_MAX_TURNS = 8;

/**
 * Pi 在带工具的运行开头声明工具：凡是给了工具的循环剧本都会出现 F1；机制剧本里跑过一轮、比历史的（扩展、包）也一样。
 */
const WITH_TOOLS = [
  ...LOOP_SCENARIOS.filter((s) => s.tools.length > 0).map((s) => s.id),
  ...MECHANISM_SCENARIOS.filter((s) => s.mechanism === "s09" || (s.mechanism === "s12" && s.input !== undefined)).map((s) => s.id),
];

/**
 * 模型第一次回答就以 toolUse 要了工具、随后又被问了一次的剧本：第二次请求里能不能看到那些调用（F13）。
 * 会话树的剧本里，发给模型的路径上有要了工具的回答时也一样。
 */
const ASKED_AGAIN_AFTER_CALLS = [
  ...LOOP_SCENARIOS.filter((s) => {
    const first = s.reply(0);
    return first?.kind === "message" && first.stop === "toolUse" && first.calls.length > 0;
  }).map((s) => s.id),
  "tree-branch-back",
  "tree-branch-to-tool-result",
  "tree-branch-to-tool-call",
];

/**

 * 表的顺序就是应用的顺序：前面的行先把轨迹改写，后面的行在改写后的轨迹上对齐。
 * status "pending" = 还没定下来是修课程还是写明理由：可以先记下来，但 npm run fidelity 会以非零退出，tests/fidelity-compare.test.ts 也会失败——
 * 每条差异最后要么在课程里修掉，要么写成 "deliberate" 并写明 reason。
 */
export const PI_TRACE_DIFFERENCES: FidelityDifference[] = [
  {
    id: "F1",
    on: "both",
    status: "deliberate",
    scenarios: WITH_TOOLS,
    pi: "带工具的运行，返回的第一条消息是 role `system`，用 `toolsAdded` 声明这次能用的工具",
    mini: "历史里只有 user / assistant / toolResult；工具清单（和 s08 起的系统提示）放在每次请求的 ProviderInput 里，不进历史",
    reason:
      "§2 字典：AgentMessage 只有三种角色，R1 只增不改。Pi 从 0.86.0 起把提示和工具声明写进 transcript；课程对齐的是 Pi 公开的 Context {systemPrompt, messages, tools}",
    reconcile: (pi, mini) => (pi[0]?.role === "system" && mini[0]?.role !== "system" ? { pi: pi.slice(1), mini } : undefined),
  },
  {
    id: "F2",
    on: "both",
    status: "deliberate",
    scenarios: ["after-hook"],
    pi: "afterToolCall 只在工具真的执行过之后调用；未知工具、参数校验失败、被拦下的调用不经过它",
    mini: "afterToolCall 包在 registry.run 外面，未知工具和参数不对的 `error: …` 结果也会被它改写（这里多出了 afterToolCall 接上的后缀）",
    reason:
      "EVOLUTION.md 决策 D23：s05 起 registry 不变（R2），参数校验在 registry.run 里面，executeToolCall 只拿到一段文字，分不出工具有没有真的执行；课程的 afterToolCall 看到的是除「被拦下」以外的每个结果，连同开头的 error: 标记一起归它处置",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) =>
          /^Tool .+ not found$|^Validation failed for tool /.test(p.text) && m.text.endsWith(AFTER_HOOK_SUFFIX)
            ? [p, { ...m, text: m.text.slice(0, -AFTER_HOOK_SUFFIX.length) }]
            : undefined,
        ),
      ),
  },
  {
    id: "F3",
    on: "both",
    status: "deliberate",
    scenarios: ["unknown-tool", "after-hook", "ext-foreign-file"],
    pi: "未知工具的结果文字是 `Tool nope not found`",
    mini: '`error: unknown tool "nope"`',
    reason: "D18：课程的错误文字统一把名字放进引号。两边都是出错的结果，循环照常继续",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => {
          const a = /^Tool (.+) not found$/.exec(p.text);
          const b = /^unknown tool "(.+)"$/.exec(m.text);
          return a !== null && b !== null && a[1] === b[1] ? [p, { ...m, text: p.text }] : undefined;
        }),
      ),
  },
  {
    id: "F4",
    on: "both",
    status: "deliberate",
    scenarios: ["invalid-args", "after-hook"],
    pi: '`Validation failed for tool "echo":`，下面逐行 `- text: missing`、`- file: unknown field`，再附上收到的参数',
    mini: '`error: invalid arguments for tool "echo": argument "text" is missing; unexpected argument "file"`',
    reason: "同一组问题，措辞不同：课程用 zod 校验（D18），Pi 用 pi-schema。对照时把两边拆成问题清单，清单必须一致",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => {
          const a = piValidationProblems(p.text);
          const b = miniValidationProblems(m.text);
          if (a === undefined || b === undefined) return undefined;
          return [
            { ...p, text: canonicalValidation(a) },
            { ...m, text: canonicalValidation(b) },
          ];
        }),
      ),
  },
  {
    id: "F5",
    on: "both",
    status: "deliberate",
    scenarios: ["blocked"],
    pi: "被 beforeToolCall 拦下的结果文字就是 `reason`",
    mini: "`error: blocked: <reason>`",
    reason: "D16：课程给拦截结果加 `blocked: `，读历史时分得清是钩子拦的还是工具自己报错",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => (m.text === `blocked: ${p.text}` ? [p, { ...m, text: p.text }] : undefined)),
      ),
  },
  {
    id: "F6",
    on: "both",
    status: "deliberate",
    scenarios: ["hook-throws"],
    pi: "beforeToolCall 抛错，结果文字就是抛出的消息",
    mini: "`error: hook failed: <消息>`",
    reason: "D16：和 `blocked: ` 一样，课程在结果里写明是钩子出的事",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => (m.text === `hook failed: ${p.text}` ? [p, { ...m, text: p.text }] : undefined)),
      ),
  },
  {
    id: "F7",
    on: "both",
    status: "deliberate",
    scenarios: ["blocked-invalid"],
    pi: "先校验参数：校验不过就是校验错误，beforeToolCall 不会被调用",
    mini: "beforeToolCall 先看到原始调用并拦下：`error: blocked: <reason>`",
    reason: "D16：参数校验在 ToolRegistry.run 里，R2 不许为钩子改 registry，所以课程的钩子在校验之前",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        errorResults((p, m) => (piValidationProblems(p.text) !== undefined && m.text.startsWith("blocked: ") ? [p, { ...p, at: m.at }] : undefined)),
      ),
  },
  {
    id: "F8",
    on: "both",
    status: "deliberate",
    scenarios: ["non-string-arg"],
    pi: "参数先按 schema 转换：数字 `42` 变成字符串 `\"42\"`，工具照常执行",
    mini: '`error: invalid arguments for tool "echo": argument "text" must be a string`，工具不执行',
    reason:
      "D18：参数按 spec.input 严格校验，非字符串点名报错，不替模型转换。Pi 的 validateToolArguments 用 pi-schema 并开着强制转换（数字、布尔、null 都会变成字符串）",
    reconcile: (pi, mini) =>
      rewritePairs(pi, mini, (p, m) => {
        if (p.role !== "toolResult" || m.role !== "toolResult" || p.toolCallId !== m.toolCallId || p.isError || !m.isError) return undefined;
        const b = miniValidationProblems(m.text);
        return b !== undefined && b.problems.every((x) => x.startsWith("not a string ")) ? [p, { ...p, at: m.at }] : undefined;
      }),
  },
  {
    id: "F9",
    on: "both",
    status: "deliberate",
    scenarios: ["output-looks-like-error"],
    pi: "工具成功返回 `error: disk full…` 这样的文字，`isError` 仍是 false",
    mini: "结果文字以 `error: ` 开头就算出错，成功的输出也一样",
    reason: "D18：课程的 ToolResultMessage 没有 isError 字段（§2 字典），`error: ` 前缀是唯一的标记，所以这种输出分不出来",
    reconcile: (pi, mini) =>
      rewritePairs(pi, mini, (p, m) =>
        p.role === "toolResult" && m.role === "toolResult" && p.toolCallId === m.toolCallId && !p.isError && m.isError && p.text === `error: ${m.text}`
          ? [p, { ...p, at: m.at }]
          : undefined,
      ),
  },
  {
    id: "F10",
    on: "history",
    status: "deliberate",
    scenarios: ["calls-without-tooluse"],
    pi: "回答里只要有 toolCall 就执行（error / aborted 除外；length 时全部判为出错），然后再问模型一次",
    mini: "回答不以 `toolUse` 收尾，其中的调用不执行，循环结束",
    reason:
      "D19：宪法 §4 的终止条件是「provider 不再发 tool_call 或 stopReason≠toolUse 或达上限」。接真模型时 live/chat-stream.ts 的 mapFinishReason 把带调用的回答一律记作 toolUse，碰不到这一条",
    reconcile: (pi, mini) => {
      const i = mini.length - 1;
      const [m, p, after] = [mini[i], pi[i], pi[i + 1]];
      if (m?.role !== "assistant" || m.stopReason === "toolUse" || m.calls.length === 0) return undefined;
      if (p?.role !== "assistant" || p.stopReason !== m.stopReason || after?.role !== "toolResult" || !p.calls.includes(after.toolCallId)) return undefined;
      return { pi: pi.slice(0, i + 1), mini };
    },
  },
  {
    id: "F11",
    on: "history",
    status: "deliberate",
    scenarios: ["length-cutoff"],
    pi: "被输出上限截断的回答，stopReason 是 `length`",
    mini: "只有 `stop` / `toolUse` / `error` 三个值，截断的回答记作 `stop`（live/chat-stream.ts 的 mapFinishReason 也这样做，另在文字末尾加一行说明）",
    reason:
      "§4：StopReason 维持三值。Pi 1.6.0 的 StopReason 有 7 个值：最终消息上的 stop、length、toolUse、error、aborted，加上只出现在流式中途的 pending 和异步的 deferred",
    reconcile: (pi, mini) =>
      rewritePairs(pi, mini, (p, m) =>
        p.role === "assistant" && m.role === "assistant" && p.stopReason === "length" && m.stopReason === "stop" ? [p, { ...m, stopReason: "length" }] : undefined,
      ),
  },
  {
    id: "F12",
    on: "history",
    status: "deliberate",
    scenarios: ["never-stops"],
    pi: "没有轮数上限，模型要几轮就跑几轮（这里用 Pi 自己的 `finishTurn` 在第 12 轮后结束）",
    mini: "问满 maxTurns（默认 8）次就停，再追加一条 assistant `max turns reached`（stopReason `stop`）",
    reason: "R5（§4）：课程的循环必须有上限。Pi 最接近的机制是 `finishTurn` 和结果的 `terminate`。对照只比前 8 轮，这 8 轮必须一致",
    reconcile: (pi, mini) => {
      const last = mini.at(-1);
      if (last?.role !== "assistant" || last.stopReason !== "stop" || last.text !== MAX_TURNS_TEXT || last.calls.length > 0) return undefined;
      const before = mini.slice(0, -1).filter((e) => e.role === "assistant");
      if (before.length !== MINI_MAX_TURNS || before.some((e) => e.role === "assistant" && e.stopReason !== "toolUse")) return undefined;
      // Pi 在同一处没有停：它的第 k+1 条助手消息还在要工具
      const piAssistants = pi.flatMap((e, i) => (e.role === "assistant" ? [{ e, i }] : []));
      const next = piAssistants[before.length];
      if (next === undefined || next.e.role !== "assistant" || next.e.stopReason !== "toolUse") return undefined;
      return { pi: pi.slice(0, next.i), mini: mini.slice(0, -1) };
    },
  },
  {
    id: "F13",
    on: "requests",
    status: "deliberate",
    scenarios: ASKED_AGAIN_AFTER_CALLS,
    pi: "下一次请求里，助手消息带着它要过的调用（`toolCall` 块：id、名字、参数），后面的结果靠 toolCallId 对上它们",
    mini: "ProviderMessage 里的助手消息只有文字；模型看得到带 toolCallId 的结果，却看不到自己要过哪些调用",
    reason:
      "§2 字典：ProviderMessage 是 `{role: \"user\" | \"assistant\"; content: string}` 加 toolResult，AssistantMessage 也只存文字和 stopReason。真实的 API 要求结果前面有对应的调用，所以 live/chat-request.ts 的 toChatMessages 按 toolCallId 把调用找回来补上",
    reconcile: (pi, mini) =>
      rewritePairs(pi, mini, (p, m) =>
        p.role === "assistant" && m.role === "assistant" && m.calls.length === 0 && p.calls.length > 0 && p.text === m.text
          ? [p, { ...m, calls: p.calls }]
          : undefined,
      ),
  },
  {
    id: "F37",
    on: "both",
    status: "deliberate",
    scenarios: ["before-undefined"],
    pi: "beforeToolCall 回 undefined 就是放行（类型写着 `BeforeToolCallResult | undefined`，`prepareToolCall` 只看 `block`），调用照常执行",
    mini: '`error: hook failed: beforeToolCall returned undefined, expected {type: "allow"} or {type: "block", reason}`，调用不执行',
    reason:
      "决策 D28：钩子出了岔子就按拦下处理（fail closed）。课程的答复是封闭的 allow / block（§2 字典），漏写一个 return 在 Pi 里是放行，放过一次删除的代价太大，课程宁可不执行并说清楚",
    reconcile: (pi, mini) => rewritePairs(pi, mini, okVersusError((text) => text === beforeHookFailed("undefined"))),
  },
  {
    id: "F38",
    on: "both",
    status: "deliberate",
    scenarios: ["before-async"],
    pi: "钩子本来就是 async 的：等它的 Promise，兑现成放行就执行（这里的 echo），兑现成 `{block: true, reason}` 就拦下，结果文字是 reason（这里的 rm）",
    mini: "答复是 Promise 就算钩子出错：`error: hook failed: beforeToolCall returned a Promise, …`，放行的、要拦的都不执行，Promise 的失败被接住",
    reason:
      "决策 D28：课程的 ToolHooks 是同步的（§2 字典），不等 Promise。以前 resolve 成拦下的 async 钩子被当成放行，是 issue 13 里最要紧的缺陷，所以凡是 Promise 一律不执行；要等人确认的钩子在课程里只能先同步地拦下",
    reconcile: (pi, mini) =>
      rewritePairs(
        pi,
        mini,
        okVersusError(
          (text) => text === beforeHookFailed("a Promise"),
          (p) => !p.isError || p.text === ASYNC_BLOCK_REASON,
        ),
      ),
  },
  {
    id: "F39",
    on: "both",
    status: "deliberate",
    scenarios: ["after-undefined"],
    pi: "afterToolCall 回 undefined 就是不改：工具的结果原样留下",
    mini: '`error: hook failed: afterToolCall returned undefined, expected a string`，工具的结果作废',
    reason:
      "决策 D28：课程的 afterToolCall 回的就是最终结果（D23）。漏写 return 时宁可报错，也不把没处理过的结果原样交出去——那可能正是钩子要遮掉的东西",
    reconcile: (pi, mini) => rewritePairs(pi, mini, okVersusError((text) => text === afterHookFailed("undefined"))),
  },
  {
    id: "F40",
    on: "both",
    status: "deliberate",
    scenarios: ["async-tool"],
    pi: "工具的 execute 本来就是 async 的：等它兑现，结果照常",
    mini: '`error: tool "weather" returned a Promise, expected a string`：不等这个 Promise，它的失败被接住',
    reason:
      "决策 D27：ToolHandler 是同步的、回文字（§2 字典）。把 Promise 当结果存进历史，s06 起每一轮都拍不了快照，agent 从此坏掉；照 Pi 写成 async 的工具在课程里得到一条说清楚的错误结果",
    reconcile: (pi, mini) => rewritePairs(pi, mini, okVersusError((text) => /^tool "[^"]+" returned a Promise, expected a string$/.test(text))),
  },
  {
    id: "F41",
    on: "caller",
    status: "deliberate",
    scenarios: ["second-prompt"],
    pi: "上一句还没跑完，`Agent.prompt` 直接 reject：`Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.`；第二句不进历史",
    mini: "runOneTurn 照常 resolve，回一条不存进历史的 `error: agent is already processing a prompt`（stopReason error）；第二句同样不进历史",
    reason:
      "决策 D33：和 Pi 一样拒绝、不排队，历史不交错。R4 不许 runOneTurn reject，所以拒绝写成一条不进历史的说明。Pi 另有 steer() / followUp() 替调用方排队，课程没有",
    reconcile: callerSaw(
      (text) => text.startsWith(callerLine(CALLER.secondPrompt, CALLER.threw("Agent is already processing a prompt."))),
      callerLine(CALLER.secondPrompt, CALLER.returned(describeEntry({ role: "assistant", stopReason: "error", text: "", calls: [], errorText: "agent is already processing a prompt" }))),
    ),
  },
  {
    id: "F42",
    on: "caller",
    status: "deliberate",
    scenarios: ["never-answers"],
    pi: "`Agent.abort()` 触发交给 provider 的 AbortSignal，pi-ai 的 provider 听到就以 stopReason aborted 收尾，prompt() 随即结束。Pi 的循环自己不赛跑：provider 不听信号时 Pi 也一直等（`never-answers-deaf`，两边一致）",
    mini: "没有取消：调用方手里没有可调的东西，这一轮一直等到 provider 回话",
    reason:
      "决策 D35：取消要么给 stream(input) 加参数（R1 不许），要么给 Agent 加字段、在 core 里逐事件赛跑（十万个文字增量时慢十倍）。上限交给 provider 自己设，live/ 的 provider 用 AbortSignal.timeout（s03 README）",
    reconcile: callerSaw((text) => text === callerLine(CALLER.gaveUp, CALLER.settled), callerLine(CALLER.gaveUp, CALLER.running)),
  },
  {
    id: "F43",
    on: "history",
    status: "deliberate",
    scenarios: ["never-answers"],
    pi: "放弃之后，历史里是一条 stopReason aborted 的回答（errorMessage `Request was aborted`），provider 后来的回答不要了",
    mini: "历史里是 provider 最后给出的回答",
    reason: "决策 D35，和 F42 是同一件事在历史里的样子；课程的 StopReason 也没有 aborted（§4，F11）",
    reconcile: (pi, mini) => {
      const [p, m] = [pi.at(-1), mini.at(-1)];
      if (p?.role !== "assistant" || p.stopReason !== "aborted" || m?.role !== "assistant" || m.stopReason !== "stop" || m.calls.length > 0) return undefined;
      return { pi, mini: [...mini.slice(0, -1), { ...p, at: m.at }] };
    },
  },
];

