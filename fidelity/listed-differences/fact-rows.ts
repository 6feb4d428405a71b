// mini Pi 和 Pi 1.6.0 在机制剧本（s07–s12）的事实上的已列出差异：会话树、系统提示、扩展、运行模式、信任、包。
// 每行写明两边各是什么样、为什么，以及怎么认出它（reconcile）。编号接着比轨迹的行（trace-rows.ts）往下排。

import { adjustFact, adjustTrace, describeEntry, type FactDifference } from "../compare.ts";
import { MECHANISM_SCENARIOS, USER_SKILL } from "../mechanisms.ts";
import { ABSENT } from "../observe.ts";
import { README } from "../project.ts";
import { copycatRead, dropLeadingRoot, dropRoles, inOrder, packageParts, pkgOf, resultText, sameLines, swapFact } from "./fact-rewrites.ts";

const S08 = MECHANISM_SCENARIOS.filter((s) => s.mechanism === "s08").map((s) => s.id);
/** 有监听者的扩展剧本（换成对方写法的那个两边都装不上，没有监听者）。 */
const LISTENING = MECHANISM_SCENARIOS.filter((s) => s.mechanism === "s09" && !s.foreign && s.extensions.some((e) => e.listen)).map((s) => s.id);
const JSON_MODE = MECHANISM_SCENARIOS.filter((s) => s.mechanism === "s10" && s.mode === "json").map((s) => s.id);

/** 机制剧本（s07–s12）的已列出差异：编号接着循环的往下排，按机制分组；同一剧本里的几行按表的顺序应用。 */
export const PI_FACT_DIFFERENCES: FactDifference[] = [
  // ── s07 ──
  {
    id: "F14",
    mechanism: "s07",
    status: "deliberate",
    scenarios: ["tree-restart"],
    pi: "`SessionManager.resetLeaf` 把叶子挪回第一条记录之前，下一条消息成了新的根，树上有两个根（界面里 /tree 选中第一条提问就是这样）",
    mini: "moveTo 只收已有节点的 id，回不到第一条之前；最接近的是换到根，新的提问挂在第一条提问下面，旧的提问还在路径上",
    reason: "§2 字典：SessionTree 只有 append、moveTo、currentPath、allEntries，树只有一个根。想从头另问，课程的读者开一棵新树就是",
    reconcile: inOrder(
      (pair) =>
        adjustFact(pair.pi, pair.mini, "父节点", (p, m) => {
          const moved = p.flatMap((line, i) => (line.endsWith("← 根") && i > 0 && m[i] === line.replace("← 根", "← #0") ? [i] : []));
          return moved.length === 1 ? [p, m.map((line, i) => (moved.includes(i) ? p[i] : line))] : undefined;
        }),
      dropLeadingRoot("当前路径"),
      dropLeadingRoot("发给模型的消息"),
    ),
  },
  {
    id: "F15",
    mechanism: "s07",
    status: "deliberate",
    scenarios: ["tree-branch-to-tool-call"],
    pi: "发给模型之前，pi-ai 的 `transformMessages` 给路径上没有结果的调用补一条出错的结果 `No result provided`",
    mini: "路径原样发出：要了工具的回答后面直接是新的提问，没有那次调用的结果",
    reason:
      "课程的消息里不存调用（§2 字典，F13），buildProviderInput 不知道哪个调用缺了结果。接真模型时 live/chat-request.ts 的 toChatMessages 只按已有的结果把调用补回请求，缺结果的调用根本不会出现在请求里，请求照样合法",
    reconcile: (pi, mini) =>
      adjustTrace(pi, mini, "发给模型的消息", (p, m) => {
        const synthetic = p.filter((e) => e.role === "toolResult" && e.isError && e.text === "No result provided" && !m.some((x) => x.role === "toolResult" && x.toolCallId === e.toolCallId));
        return synthetic.length > 0 ? [p.filter((e) => !synthetic.includes(e)), m] : undefined;
      }),
  },
  {
    id: "F16",
    mechanism: "s07",
    status: "deliberate",
    scenarios: ["tree-error-on-path"],
    pi: "出错（error / aborted）的助手消息留在会话里，发给模型前由 `transformMessages` 去掉",
    mini: "出错的回答照样发给模型：已收到的文字后面接着 `error: <原因>` 那一行（D6）",
    reason: "决策 D38：路径上的每条消息都原样发给模型，buildProviderInput 不挑。出错的回答是一条普通的助手消息（D6），模型下一次能看到自己上次断在哪；它只是一段文字，任何 API 都收",
    reconcile: (pi, mini) =>
      adjustTrace(pi, mini, "发给模型的消息", (p, m) => {
        const stored = mini.traces["当前路径"]?.trace ?? [];
        const failed = stored.flatMap((e) => (e.role === "assistant" && e.stopReason === "error" && e.errorText !== undefined ? [e.text === "" ? `error: ${e.errorText}` : `${e.text}\nerror: ${e.errorText}`] : []));
        const kept = m.filter((e) => !(e.role === "assistant" && failed.includes(e.text)));
        return failed.length > 0 && kept.length === m.length - failed.length && !p.some((e) => e.role === "assistant" && failed.includes(e.text)) ? [p, kept] : undefined;
      }),
  },
  // ── s08 ──
  {
    id: "F17",
    mechanism: "s08",
    status: "deliberate",
    scenarios: ["prompt-ancestors"],
    pi: "`loadProjectContextFiles` 从用户目录、再从根目录一路找到工作目录，每一级取 AGENTS.md（或 CLAUDE.md），上一级的排在前面",
    mini: "ResourceLoader 不找文件，只用调用方交给它的资料；对照时交的是工作目录里的文件",
    reason: "§2 字典：ResourceLoader 的构造函数收一组资料，课程离线、不碰磁盘。怎么把文件换成资料见「表示法对应」",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "进了提示的项目说明（按位置）", (p, m) => {
        const outside = p.filter((label) => !label.startsWith("project/"));
        return outside.length > 0 && !m.some((label) => outside.includes(label)) ? [p.filter((label) => !outside.includes(label)), m] : undefined;
      }),
  },
  {
    id: "F18",
    mechanism: "s08",
    status: "deliberate",
    scenarios: ["prompt-no-read-tool"],
    pi: "既没有 read 也没有 bash 工具时，系统提示里不加技能段：模型没法去读技能的全文",
    mini: "技能索引总在系统提示里，buildSystemPrompt 只看资料，不看有哪些工具",
    reason: "D2：buildSystemPrompt(resources) 的签名在 s08 定死，拿不到工具清单；课程的演示里总有 read 工具",
    reconcile: inOrder(
      (pair) =>
        adjustFact(pair.pi, pair.mini, "技能", (p, m) =>
          p.length > 0 && p.every((l) => l.endsWith("：不在提示里")) && sameLines(m, p.map((l) => l.replace("：不在提示里", "：只有索引（名字和说明）"))) ? [p, [...p]] : undefined,
        ),
      (pair) => adjustFact(pair.pi, pair.mini, "技能条目带文件位置", (p, m) => (p.length === 0 && m.length > 0 && m.every((l) => l.endsWith("：不带")) ? [p, []] : undefined)),
      (pair) => adjustFact(pair.pi, pair.mini, "各部分的先后", (p, m) => (!p.includes("技能索引") && m.includes("技能索引") ? [p, m.filter((x) => x !== "技能索引")] : undefined)),
    ),
  },
  {
    id: "F19",
    mechanism: "s08",
    status: "deliberate",
    scenarios: ["prompt-resources", "prompt-no-read-tool"],
    pi: "APPEND_SYSTEM.md 的内容（`addendum` 段）紧跟在默认提示后面，排在项目说明和技能前面",
    mini: "prompt 类资料接在系统提示的最后",
    reason: "D15：课程的 buildSystemPrompt 按种类排，开场白、项目说明、技能索引、追加的话，「追加」就在最后，和它的名字一致（s08 README 源码溯源）",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "各部分的先后", (p, m) => (p[0] === "追加的话" && m.at(-1) === "追加的话" && p.length === m.length ? [p, ["追加的话", ...m.slice(0, -1)]] : undefined)),
  },
  {
    id: "F20",
    mechanism: "s08",
    status: "deliberate",
    scenarios: ["prompt-resources"],
    pi: "技能索引的每一条带着 SKILL.md 的完整路径，并叮嘱模型要用时用 read 去读全文",
    mini: "索引只有名字和说明，没有文件位置",
    reason: "§2 字典：ContextResource 只有 kind、name、content，没有路径；课程的技能全文就在资料里",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "技能条目带文件位置", (p, m) =>
        p.length > 0 && p.every((l) => l.endsWith("：带")) && sameLines(m, p.map((l) => l.replace(/：带$/, "：不带"))) ? [p, [...p]] : undefined,
      ),
  },
  {
    id: "F21",
    mechanism: "s08",
    status: "deliberate",
    scenarios: S08,
    pi: "系统提示里还有工具说明、规则、文档指引和工作目录几段（这里看的是工作目录的路径写没写进去）",
    mini: "只有开场白、项目说明、技能索引、追加的话；工具清单单独放在 ProviderInput.tools 里，没有工作目录",
    reason: "s08 只讲资料怎么进系统提示：课程的开场白是一句固定的话（SYSTEM_PREAMBLE），演示的项目在内存里，没有工作目录可写",
    reconcile: inOrder(swapFact("工作目录写在提示里", ["是"], ["否"])),
  },
  // ── s09 ──
  {
    id: "F22",
    mechanism: "s09",
    status: "deliberate",
    scenarios: LISTENING,
    pi: "订阅 `message_end` 的监听者收到整条消息（看得出角色），系统消息和用户消息也各来一次",
    mini: "message 事件只带文字，只为本轮循环存下的助手回答和工具结果发（D11）",
    reason: "§2 字典：RuntimeEvent 是 `{type: \"message\"; content}` 或 `{type: \"done\"}`。D11：用户消息由 runOneTurn 存，不发事件；课程的历史里没有系统消息（F1）",
    reconcile: inOrder(dropRoles("监听者看到的事件")),
  },
  {
    id: "F23",
    mechanism: "s09",
    status: "deliberate",
    scenarios: ["ext-name-clash"],
    pi: "扩展登记的工具能顶替宿主的同名工具（这里是内置的 read），不报错；两个扩展登记同名工具时先登记的生效，后一个报一条冲突，它别的登记照样生效",
    mini: "工具重名是错误：后一个扩展整个不生效，记一条错误，宿主的 read 不变",
    reason: "s02 起 ToolRegistry.register 不许悄悄覆盖；D10：一个扩展的登记要么全部生效，要么全部作废",
    reconcile: inOrder(resultText("历史", copycatRead, README), (pair) =>
      adjustFact(pair.pi, pair.mini, "监听者看到的事件", (p, m) => {
        const i = m.findIndex((l) => l.endsWith(` ${JSON.stringify(README)}`));
        const j = p.findIndex((l) => l.endsWith(` ${JSON.stringify(copycatRead)}`));
        return i >= 0 && j >= 0 ? [p, m.map((l, k) => (k === i ? l.replace(JSON.stringify(README), JSON.stringify(copycatRead)) : l))] : undefined;
      }),
    ),
  },
  {
    id: "F24",
    mechanism: "s09",
    status: "deliberate",
    scenarios: ["ext-name-clash"],
    pi: "两个扩展登记同名命令时两个都留下，改叫 stats:1、stats:2；原来的 /stats 不再是命令（敲了会当普通提问发给模型）",
    mini: "命令重名是错误：后一个扩展整个不生效，/stats 仍是先装的那个",
    reason: "D10；课程宁可报错，不让读者猜哪个生效（s09 README 源码溯源）",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "命令", (p, m) =>
        p.length === m.length && p.every((l, i) => l === m[i] || (l.endsWith("→ 没有运行任何命令") && m[i].startsWith(l.slice(0, l.indexOf("→"))))) && !sameLines(p, m)
          ? [p, [...p]]
          : undefined,
      ),
  },
  // ── s10 ──
  {
    id: "F25",
    mechanism: "s10",
    status: "deliberate",
    scenarios: JSON_MODE,
    pi: "JSON 模式的第一行是会话头（type 为 session，带会话 id、时间、工作目录）",
    mini: "JsonMode 只写事件，没有会话头",
    reason: "课程的会话树只在内存里，没有会话文件和会话 id（s07）；RuntimeMode.render 只收这一轮的事件",
    reconcile: inOrder(swapFact("开头的会话头", ["有"], ["没有"])),
  },
  {
    id: "F26",
    mechanism: "s10",
    status: "deliberate",
    scenarios: JSON_MODE,
    pi: "每个事件一行，十来种：agent_start、turn_start、message_start、message_update（流式增量）、message_end、tool_execution_start / _end、turn_end、agent_end，最后是 agent_settled",
    mini: "只有 message 和 done 两种，一轮结束时一起写出，最后一行是 done",
    reason: "§2 字典：RuntimeEvent 只有两种；D12：模式在一轮结束时拿到整批事件。Pi 的 agent_settled 说的是不会再自动重试或接着跑（F30），课程的 done 就是这一轮真的完了",
    reconcile: inOrder(
      (pair) =>
        adjustFact(pair.pi, pair.mini, "事件种类（按第一次出现）", (p, m) =>
          sameLines(m, ["message", "done"]) && p.includes("message_end") && p.includes("agent_end") ? [p, [...p]] : undefined,
        ),
      swapFact("最后一个事件", ["agent_settled"], ["done"]),
    ),
  },
  {
    id: "F27",
    mechanism: "s10",
    status: "deliberate",
    scenarios: JSON_MODE,
    pi: "每条消息的 message_end 带整条消息：读的程序分得出用户、助手和工具结果，系统消息和用户的提问也在流里",
    mini: "message 事件只有文字：读的程序分不出哪条是回答、哪条是工具结果，用户的提问不在流里",
    reason: "§2 字典：RuntimeEvent 没有角色字段；D11 同 F22",
    reconcile: inOrder(dropRoles("读得出的消息")),
  },
  {
    id: "F28",
    mechanism: "s10",
    status: "deliberate",
    scenarios: ["mode-line-separator"],
    pi: "JSON 行里的 U+2028 / U+2029 原样写出（JSON 允许），要求读的程序只按换行符切行",
    mini: "JsonMode 把它们转义成 `\\u2028` / `\\u2029`，用 readline 按行读也不会切错",
    reason: "D12；解析出来的文字两边一样（「读得出的消息」一致），不同的只是字节",
    reconcile: inOrder(swapFact("原样的 U+2028 / U+2029", ["有"], ["没有"])),
  },
  {
    id: "F29",
    mechanism: "s10",
    status: "deliberate",
    scenarios: ["mode-error"],
    pi: "文字模式下最后一条回答出错时，错误说明写到标准错误，标准输出什么都没有，退出码 1",
    mini: "PrintMode 把出错的回答（`error: …`）和平常的回答一样写到 Output；课程没有退出码",
    reason: "R7、D12：core 只有 Output 一个出口，RuntimeMode 只管呈现这一轮；演示一次跑好几轮，不以进程退出码收尾",
    reconcile: inOrder(
      (pair) => adjustFact(pair.pi, pair.mini, "标准输出", (p, m) => (p.length === 0 && m.length > 0 && m.every((l) => l.startsWith("error: ")) ? [p, []] : undefined)),
      swapFact("错误说明写在哪", ["标准错误"], ["标准输出"]),
      swapFact("退出码", ["1"], [ABSENT]),
    ),
  },
  {
    id: "F30",
    mechanism: "s10",
    status: "deliberate",
    scenarios: ["mode-error"],
    pi: "会话遇到 provider 的临时错误（这里是 503）会自动重试，默认 3 次、间隔从 2 秒起翻倍（剧本调成 1 次、1 毫秒）",
    mini: "不重试：provider 出错就是这一轮的结果",
    reason: "R4：provider 出错变成一条 stopReason 为 error 的消息，循环到此结束；§4 的循环里没有重试这一步，要重试是调用方的事",
    reconcile: inOrder(swapFact("问了模型几次", ["2"], ["1"])),
  },
  // ── s11 ──
  {
    id: "F31",
    mechanism: "s11",
    status: "deliberate",
    scenarios: ["trust-untrusted"],
    pi: "不信任的项目，AGENTS.md 照样加载进系统提示",
    mini: "不信任时一份资料都不加载，AGENTS.md 也不例外",
    reason: "决策 D24：比 Pi 严，宪法 R6 写的是 untrusted 返回空；项目说明正是最容易夹带指令的文件",
    reconcile: inOrder(swapFact("进了提示的项目说明（按位置）", ["project/AGENTS.md"], [])),
  },
  {
    id: "F32",
    mechanism: "s11",
    status: "deliberate",
    scenarios: ["trust-untrusted"],
    pi: "用户自己的资料（用户目录下的 skills 等）不看项目信任，照样加载",
    mini: "ResourceLoader 只有一份资料清单，不分用户的和项目的；不信任时一份都不加载",
    reason: "§2 字典：ContextResource 没有来源字段；R6、D8：load(trust) 在不信任时返回空",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "技能", (p, m) => {
        const [piLine, miniLine] = [`${USER_SKILL}：只有索引（名字和说明）`, `${USER_SKILL}：不在提示里`];
        return p.includes(piLine) && m.includes(miniLine) ? [p, m.map((l) => (l === miniLine ? piLine : l))] : undefined;
      }),
  },
  {
    id: "F33",
    mechanism: "s11",
    status: "deliberate",
    scenarios: ["trust-untrusted", "trust-trusted"],
    pi: "项目 .pi/extensions 里的扩展要等项目被信任才加载（这里是登记 lint 工具的扩展）",
    mini: "没有项目扩展这回事：扩展由调用方 use() 装上，信任不管它；load(trust) 只管资料",
    reason: "§3：s11 的升级只在 load(trust) 上（U1）；课程的扩展和包里的工具都是调用方亲手装的（s12 README 源码溯源）",
    reconcile: (pi, mini) =>
      adjustFact(pi, mini, "项目扩展登记的工具", (p, m) => (sameLines(m, [ABSENT]) && (sameLines(p, []) || sameLines(p, ["lint"])) ? [p, [...p]] : undefined)),
  },
  // ── s12 ──
  {
    id: "F34",
    mechanism: "s12",
    status: "deliberate",
    scenarios: ["package-local"],
    pi: "包里 prompts/ 下的是提示模板：不进系统提示，输入 /style 时展开成一条用户消息",
    mini: "包里 prompts/… 的内容是 prompt 类资料，追加在系统提示末尾；/style 只是一句普通的提问",
    reason: "D15：课程的 prompt 类资料对应 Pi 的 APPEND_SYSTEM.md，课程没有提示模板",
    reconcile: inOrder(swapFact("提示模板 style", ["系统提示里：没有", "输入 /style：展开成用户消息"], ["系统提示里：有", "输入 /style：原样发出"])),
  },
  {
    id: "F35",
    mechanism: "s12",
    status: "deliberate",
    scenarios: ["package-broken"],
    pi: "清单里列的扩展文件不存在时悄悄跳过，不报错；包里别的扩展、技能照常加载",
    mini: "loadPackage 发现清单里的命令在 contents 里没有，整包拒绝并点名，什么都不装",
    reason: "D13：包要么整个装上，要么什么都不变；宁可装不上，也不要装上半个（s12 README 源码溯源）",
    reconcile: (() => {
      const pkg = pkgOf("package-broken");
      return inOrder(
        packageParts(
          pkg.extension.tools.map((t) => t.name),
          pkg.extension.commands.map((c) => [c.name, c.reply]),
          Object.keys(pkg.skills),
        ),
        swapFact("报告的问题", ["0"], ["1"]),
      );
    })(),
  },
  {
    id: "F36",
    mechanism: "s12",
    status: "deliberate",
    scenarios: ["package-clash"],
    pi: "包里的扩展和已装的扩展登记了同名工具：先装的生效，报一条冲突，包里别的工具、命令、技能照常加载",
    mini: "installPackage 先查冲突，撞名就整包拒绝，什么都不装",
    reason: "D13；同名的东西装上了哪一个，课程不让读者去猜",
    reconcile: (() => {
      const pkg = pkgOf("package-clash");
      const taken = new Set(MECHANISM_SCENARIOS.flatMap((s) => (s.id === "package-clash" && s.mechanism === "s12" ? s.extensions.flatMap((e) => e.tools.map((t) => t.name)) : [])));
      return inOrder(
        packageParts(
          pkg.extension.tools.map((t) => t.name).filter((n) => !taken.has(n)),
          pkg.extension.commands.map((c) => [c.name, c.reply]),
          Object.keys(pkg.skills),
        ),
      );
    })(),
  },
];
