// The page's words in the reader's language. The messages come from the project's gettext catalogs, compiled by
// scripts/catalogs.py into /client/i18n/LANG.json; a message is written here in English, t("...") or
// tn("...", "...", n), with {name} placeholders. The language: the reader's own choice (remembered), else the
// first of navigator.languages that the café speaks, else English.

const KEY = "cafe-language";
export const LANGUAGES = { en: "English", de: "Deutsch", fr: "Français", cs: "Čeština" };

let book = { language: "en", plural: { one: 0, other: 1 }, messages: {} };
let plurals = new Intl.PluralRules("en");

export function chosenLanguage() {
  const saved = localStorage.getItem(KEY);
  if (LANGUAGES[saved]) return saved;
  for (const tag of navigator.languages ?? [navigator.language ?? "en"]) {
    const code = tag.toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES[code]) return code;
  }
  return "en";
}

export function rememberLanguage(language) {
  localStorage.setItem(KEY, language);
}

export async function loadLanguage(language) {
  book = await (await fetch(`/client/i18n/${language}.json`)).json();
  plurals = new Intl.PluralRules(book.language);
  document.documentElement.lang = book.language;
}

export const language = () => book.language;

const fill = (text, args) => text.replace(/\{(\w+)\}/g, (whole, key) => (key in args ? String(args[key]) : whole));

// A message in the reader's language, its placeholders filled in.
export function t(message, args = {}) {
  const found = book.messages[message];
  return fill(typeof found === "string" && found ? found : message, args);
}

// The form of a message for the number n ({n} is filled in too).
export function tn(singular, plural, n, args = {}) {
  const forms = book.messages[singular];
  const text = Array.isArray(forms) ? forms[book.plural[plurals.select(n)] ?? forms.length - 1]
    : n === 1 ? singular : plural;
  return fill(text, { n, ...args });
}

// A number as the reader's language writes it, with this many decimals ("4,4" in German).
export const number = (n, digits = 0) =>
  new Intl.NumberFormat(book.language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(n);
