// 站点主题：VitePress 默认主题，加两个组件（回放、代码折叠按钮）和课程自己的样式。
// tokens.css 是 site/build.ts 生成的语法高亮颜色类。
import type { Theme } from "vitepress";
import DefaultTheme from "vitepress/theme";
import "../../.gen/tokens.css";
import CodeTools from "./CodeTools.vue";
import Replay from "./Replay.vue";
import "./style.css";

const theme: Theme = {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component("Replay", Replay);
    app.component("CodeTools", CodeTools);
  },
};

export default theme;
