// 站点主题：VitePress 默认主题（不带 Inter 字体：课文是中文，系统字体就好，页面少下两百 KB），
// 加几个组件（片段、回放、代码工具、比较两课、练习视图开关）和课程自己的样式。tokens.css 是 site/build.ts 生成的语法高亮颜色类。
import { type Theme, useRoute } from "vitepress";
import DefaultTheme from "vitepress/theme-without-fonts";
import { nextTick, onBeforeUnmount, onMounted, watch } from "vue";
import "../../.gen/tokens.css";
import CodeTools from "./CodeTools.vue";
import Compare from "./Compare.vue";
import LpRaw from "./LpRaw.vue";
import PracticeToggle from "./PracticeToggle.vue";
import Replay from "./Replay.vue";
import "./style.css";

/**
 * 代码、差异、回放（.lp-wide）要用满整个宽度：桌面上它们向右伸进「本页内容」那一栏（伸多少由这里量出来，写进 --lp-bleed），
 * 它们在屏幕上时，那一栏的目录隐去（.lp-aside-off），回到课文时再出现。不开 JavaScript 时照常窄排。
 */
function useWideSections(): void {
  const route = useRoute();
  let observer: IntersectionObserver | undefined;
  const visible = new Set<Element>();

  const measure = (): void => {
    const doc = document.querySelector<HTMLElement>(".VPDoc");
    const content = doc?.querySelector<HTMLElement>(".content");
    const container = doc?.querySelector<HTMLElement>(".content-container");
    if (doc === null || doc === undefined || content === null || content === undefined || container === null || container === undefined) return;
    const aside = doc.querySelector<HTMLElement>(".aside");
    const asideShown = aside !== null && getComputedStyle(aside).display !== "none";
    const edge = asideShown ? aside.getBoundingClientRect().right : content.getBoundingClientRect().right - parseFloat(getComputedStyle(content).paddingRight);
    const bleed = `${Math.max(0, Math.floor(edge - container.getBoundingClientRect().right))}px`;
    if (doc.style.getPropertyValue("--lp-bleed") === bleed) return;
    doc.style.setProperty("--lp-bleed", bleed);
    // 宽块变宽以后，表格变矮、页面变短：网址里要跳到的那一处（#f3、#d4）被挤走了，再跳一次
    const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target !== null && !/^#L\d+$/.test(location.hash)) target.scrollIntoView();
  };

  const observe = (): void => {
    observer?.disconnect();
    visible.clear();
    const doc = document.querySelector<HTMLElement>(".VPDoc");
    if (doc === null) return;
    measure();
    observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) visible.add(e.target);
        else visible.delete(e.target);
      }
      doc.classList.toggle("lp-aside-off", visible.size > 0);
    });
    for (const wide of document.querySelectorAll(".lp-wide")) observer.observe(wide);
  };

  onMounted(() => {
    observe();
    window.addEventListener("resize", measure);
  });
  onBeforeUnmount(() => {
    observer?.disconnect();
    window.removeEventListener("resize", measure);
  });
  watch(
    () => route.path,
    () => void nextTick(observe),
  );
}

const theme: Theme = {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component("Replay", Replay);
    app.component("CodeTools", CodeTools);
    app.component("Compare", Compare);
    app.component("LpRaw", LpRaw);
    app.component("PracticeToggle", PracticeToggle);
  },
  setup() {
    useWideSections();
  },
};

export default theme;
