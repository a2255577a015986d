// The words of the web page in zh, ko and en, and the language the page is in.
"use strict";

const WORDS = {
  zh: {moment: "時刻", tz: "時區", topic: "占事", lang: "語言", schools: "流派選項", cast: "起課", findings: "斷語",
       graph: "全推理圖", none: "無斷語", needs: "待斷", pillars: "四柱", term: "節氣", busy: "推算中…",
       verdicts: "判斷", general: "總占", usegod: "用神", facets: "所問", when: "應期", conflicts: "相違",
       overridden: "見棄", reasons: "理由", open: "無答", decided: "已定", undecided: "未定", readOn: "所據之局",
       polarity: "吉凶", system: "系統", tally: "統計", shown: "所示", path: "路徑", days: "日後",
       nodate: "無日期", default: "預設", show: "顯示", lessons: "四課", transmissions: "三傳", kin: "六親",
       general_: "將", noPol: "無", by: "依", close: "關", evidence: "旁證", translation: "譯文",
       search: "搜尋", relation: "關係", all: "全部", more: "顯示其餘", nodes: "節點", edges: "邊"},
  ko: {moment: "시각", tz: "시간대", topic: "점사", lang: "언어", schools: "유파 선택", cast: "포국", findings: "판단",
       graph: "전체 추론 그래프", none: "판단 없음", needs: "판단 필요", pillars: "사주", term: "절기", busy: "계산 중…",
       verdicts: "판정", general: "총점", usegod: "용신", facets: "묻는 것", when: "응기", conflicts: "상충",
       overridden: "제외됨", reasons: "근거", open: "답 없음", decided: "정해짐", undecided: "미정", readOn: "읽은 국",
       polarity: "길흉", system: "체계", tally: "집계", shown: "표시", path: "경로", days: "일 후",
       nodate: "날짜 없음", default: "기본값", show: "보기", lessons: "사과", transmissions: "삼전", kin: "육친",
       general_: "장", noPol: "없음", by: "근거", close: "닫기", evidence: "방증", translation: "번역",
       search: "검색", relation: "관계", all: "전체", more: "나머지 보기", nodes: "노드", edges: "간선"},
  en: {moment: "moment", tz: "time zone", topic: "topic", lang: "language", schools: "school options", cast: "cast",
       findings: "findings", graph: "whole reading graph", none: "no findings", needs: "needs judgment",
       pillars: "pillars", term: "solar term", busy: "reading…", verdicts: "judgment", general: "general reading",
       usegod: "use god (用神)", facets: "questions", when: "timing (應期)", conflicts: "conflicts",
       overridden: "set aside", reasons: "reasons", open: "open", decided: "decided", undecided: "undecided",
       readOn: "read on", polarity: "polarity", system: "system", tally: "tally", shown: "shown", path: "path",
       days: "days on", nodate: "no date", default: "default", show: "show", lessons: "four lessons",
       transmissions: "three transmissions", kin: "kin", general_: "general", noPol: "none", by: "by",
       close: "close", evidence: "evidence", translation: "translation", search: "search", relation: "relation",
       all: "all", more: "show the rest", nodes: "nodes", edges: "edges"},
};
/** The three systems, named in each language. */
export const SYSTEMS = {liuren: {zh: "大六壬", ko: "대육임", en: "Da Liu Ren"},
                        qimen: {zh: "奇門遁甲", ko: "기문둔갑", en: "Qimen Dunjia"},
                        ninestar: {zh: "九星", ko: "구성", en: "Nine Stars"}};
/** The lore readings, named in each language (their rule name is the query's own word). */
export const LORE = {kin: {zh: "六親", ko: "육친", en: "kin"}, stages: {zh: "長生", ko: "십이운성", en: "life stage"},
                     vigour: {zh: "旺相", ko: "왕상휴수사", en: "vigour"},
                     relations: {zh: "刑沖破害合", ko: "형충파해합", en: "relation"},
                     shensha: {zh: "旬中神煞", ko: "순중신살", en: "decade spirit"},
                     leixiang: {zh: "類神", ko: "유신", en: "class symbol"}};

let current = "zh";

/** Set the page's language (zh, ko or en; anything else is en). */
export function setLang(lang) { current = WORDS[lang] ? lang : "en"; document.documentElement.lang = current; }
export function lang() { return current; }
/** The page word *key* in the page's language. */
export function t(key) { return WORDS[current][key] || WORDS.en[key] || key; }
/** A {zh, ko, en} name in the page's language; without one, the Chinese name (zh, or a node's own name), then
 * *fallback*; English only on the en page or when nothing else is there. */
export function named(names, fallback = "") {
  if (!names) return fallback;
  if (typeof names === "string") return names;
  return names[current] || names.zh || names.name || fallback || names.en || "";
}

// what only the project's own bookkeeping reads: convention numbers (J3), inventory row ids (002-S28.SF-02),
// "inventory meta row …" and "issue #29"
const INTERNAL = /\bJ\d+\b|\b\d{3}-S\d[\w.]*(?:-\d+)?|inventory (?:meta )?row|\bissue #\d+/i;

/** *text* as a user reads it: a leading convention number ("J3: ") dropped, and every clause (split at ";")
 * that names an internal code left out; "" when nothing is left. */
export function plain(text) {
  if (text === null || text === undefined) return "";
  const clauses = String(text).replace(/\s*\(\d+\.\d+\.[\w.]+\)/g, "").split(/\s*;\s*/)
    .map((c) => c.replace(/^\s*J\d+\s*[:：]\s*/, "").trim());
  return clauses.filter((c) => c && !INTERNAL.test(c)).join("; ");
}
/** Every element marked data-t gets its word in the page's language. */
export function translate() { for (const n of document.querySelectorAll("[data-t]")) n.textContent = t(n.dataset.t); }
