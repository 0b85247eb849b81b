"""A small offline glossary translator.

The service has no network access, so instead of an online translation API it uses a built-in bilingual
glossary that pivots through English: source words are mapped to English concepts, then to the target
language. Whole known phrases are translated first; otherwise text is translated word by word (greedy
longest match for languages written without spaces), and words not in the glossary are kept unchanged.
"""
import re

LANGUAGES = {
    "en": "English",
    "zh-cn": "Chinese (Simplified)",
    "zh-tw": "Chinese (Traditional)",
    "es": "Spanish",
    "fr": "French",
    "de": "German",
    "it": "Italian",
    "pt": "Portuguese",
    "ja": "Japanese",
    "ko": "Korean",
    "ru": "Russian",
}

# concept (English) -> translations; columns follow COLUMNS
COLUMNS = ("zh-cn", "zh-tw", "es", "fr", "de", "it", "pt", "ja", "ko", "ru")
_GLOSSARY = """
hello|你好|你好|hola|bonjour|hallo|ciao|olá|こんにちは|안녕하세요|привет
hi|嗨|嗨|hola|salut|hallo|ciao|oi|やあ|안녕|привет
goodbye|再见|再見|adiós|au revoir|auf wiedersehen|arrivederci|adeus|さようなら|안녕히 가세요|до свидания
thank you|谢谢|謝謝|gracias|merci|danke|grazie|obrigado|ありがとう|감사합니다|спасибо
thanks|谢谢|謝謝|gracias|merci|danke|grazie|obrigado|ありがとう|고마워요|спасибо
please|请|請|por favor|s'il vous plaît|bitte|per favore|por favor|お願いします|제발|пожалуйста
yes|是|是|sí|oui|ja|sì|sim|はい|네|да
no|不|不|no|non|nein|no|não|いいえ|아니요|нет
good morning|早上好|早安|buenos días|bonjour|guten morgen|buongiorno|bom dia|おはようございます|좋은 아침|доброе утро
good night|晚安|晚安|buenas noches|bonne nuit|gute nacht|buona notte|boa noite|おやすみなさい|안녕히 주무세요|спокойной ночи
how are you|你好吗|你好嗎|cómo estás|comment allez-vous|wie geht es dir|come stai|como vai|お元気ですか|어떻게 지내세요|как дела
world|世界|世界|mundo|monde|welt|mondo|mundo|世界|세계|мир
friend|朋友|朋友|amigo|ami|freund|amico|amigo|友達|친구|друг
this|这|這|esto|ceci|dies|questo|isto|これ|이것|это
that|那|那|eso|cela|das|quello|isso|それ|그것|то
is|是|是|es|est|ist|è|é|です|이다|есть
are|是|是|son|sont|sind|sono|são|です|이다|есть
a|一个|一個|un|un|ein|un|um|一つの|하나의|один
an|一个|一個|un|un|ein|un|um|一つの|하나의|один
the|这|這|el|le|der|il|o|その|그|этот
and|和|和|y|et|und|e|e|と|그리고|и
or|或|或|o|ou|oder|o|ou|または|또는|или
text|文本|文本|texto|texte|text|testo|texto|テキスト|텍스트|текст
longer|更长的|更長的|más largo|plus long|längerer|più lungo|mais longo|より長い|더 긴|более длинный
long|长|長|largo|long|lang|lungo|longo|長い|긴|длинный
short|短|短|corto|court|kurz|corto|curto|短い|짧은|короткий
that contains|包含|包含|que contiene|qui contient|der enthält|che contiene|que contém|を含む|포함하는|который содержит
contains|包含|包含|contiene|contient|enthält|contiene|contém|含む|포함한다|содержит
multiple|多个|多個|múltiples|plusieurs|mehrere|multiple|múltiplas|複数の|여러|несколько
word|词|詞|palabra|mot|wort|parola|palavra|単語|단어|слово
words|词语|詞語|palabras|mots|wörter|parole|palavras|単語|단어들|слова
should|应该|應該|debería|devrait|sollte|dovrebbe|deveria|べき|해야 한다|должен
be|被|被|ser|être|sein|essere|ser|である|되다|быть
translated|翻译|翻譯|traducido|traduit|übersetzt|tradotto|traduzido|翻訳された|번역된|переведён
translate|翻译|翻譯|traducir|traduire|übersetzen|tradurre|traduzir|翻訳する|번역하다|переводить
translation|翻译|翻譯|traducción|traduction|übersetzung|traduzione|tradução|翻訳|번역|перевод
correctly|正确地|正確地|correctamente|correctement|korrekt|correttamente|corretamente|正しく|올바르게|правильно
language|语言|語言|idioma|langue|sprache|lingua|idioma|言語|언어|язык
time|时间|時間|tiempo|temps|zeit|tempo|tempo|時間|시간|время
day|天|天|día|jour|tag|giorno|dia|日|날|день
today|今天|今天|hoy|aujourd'hui|heute|oggi|hoje|今日|오늘|сегодня
tomorrow|明天|明天|mañana|demain|morgen|domani|amanhã|明日|내일|завтра
water|水|水|agua|eau|wasser|acqua|água|水|물|вода
food|食物|食物|comida|nourriture|essen|cibo|comida|食べ物|음식|еда
house|房子|房子|casa|maison|haus|casa|casa|家|집|дом
love|爱|愛|amor|amour|liebe|amore|amor|愛|사랑|любовь
i|我|我|yo|je|ich|io|eu|私|나|я
you|你|你|tú|vous|du|tu|você|あなた|당신|ты
we|我们|我們|nosotros|nous|wir|noi|nós|私たち|우리|мы
they|他们|他們|ellos|ils|sie|loro|eles|彼ら|그들|они
good|好|好|bueno|bon|gut|buono|bom|良い|좋은|хороший
bad|坏|壞|malo|mauvais|schlecht|cattivo|mau|悪い|나쁜|плохой
new|新|新|nuevo|nouveau|neu|nuovo|novo|新しい|새로운|новый
welcome|欢迎|歡迎|bienvenido|bienvenue|willkommen|benvenuto|bem-vindo|ようこそ|환영합니다|добро пожаловать
"""

_TOKEN_RE = re.compile(r"\w+(?:'\w+)?|[^\w\s]|\s+", re.UNICODE)
_NO_SPACE_LANGS = {"zh-cn", "zh-tw", "ja"}


def _build():
    to_en = {lang: {} for lang in LANGUAGES}
    from_en = {lang: {} for lang in LANGUAGES}
    for line in _GLOSSARY.strip().splitlines():
        parts = line.split("|")
        en = parts[0]
        to_en["en"][en] = en
        from_en["en"][en] = en
        for lang, word in zip(COLUMNS, parts[1:]):
            from_en[lang].setdefault(en, word)
            to_en[lang].setdefault(word.lower(), en)
    return to_en, from_en


_TO_EN, _FROM_EN = _build()


def normalize_lang(code):
    """Return the canonical supported code for `code`, or None if unsupported."""
    if not isinstance(code, str):
        return None
    c = code.strip().lower().replace("_", "-")
    if c in ("zh", "zh-hans"):
        c = "zh-cn"
    elif c == "zh-hant":
        c = "zh-tw"
    return c if c in LANGUAGES else None


def _phrase_lookup(phrase, source):
    return _TO_EN[source].get(phrase.strip().lower())


def _render(concept, target, original):
    if target == "en":
        out = concept
    else:
        out = _FROM_EN[target].get(concept, original)
    if original[:1].isupper() and out[:1].islower():
        out = out[:1].upper() + out[1:]
    return out


def _segments_spaced(text, source):
    """Yield (kind, value) where kind is 'concept' or 'raw'; greedy multi-word phrase matching."""
    tokens = _TOKEN_RE.findall(text)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if not re.match(r"\w", tok):
            yield "raw", tok, tok
            i += 1
            continue
        # try the longest phrase of up to 4 words starting here
        matched = False
        for n_words in (4, 3, 2):
            j, words, k = i, [], i
            while k < len(tokens) and len(words) < n_words:
                if re.match(r"\w", tokens[k]):
                    words.append(tokens[k])
                elif not tokens[k].isspace():
                    break
                k += 1
            if len(words) == n_words:
                phrase = " ".join(words)
                concept = _phrase_lookup(phrase, source)
                if concept:
                    yield "concept", concept, phrase
                    i = k
                    matched = True
                    break
        if matched:
            continue
        concept = _phrase_lookup(tok, source)
        yield ("concept", concept, tok) if concept else ("raw", tok, tok)
        i += 1


def _segments_unspaced(text, source):
    keys = sorted(_TO_EN[source], key=len, reverse=True)
    i = 0
    while i < len(text):
        for key in keys:
            if key and text.startswith(key, i):
                yield "concept", _TO_EN[source][key], key
                i += len(key)
                break
        else:
            yield "raw", text[i], text[i]
            i += 1


def translate(text, source, target):
    """Translate `text` from `source` to `target` (both canonical codes)."""
    if source == target or not text.strip():
        return text
    stripped = text.strip()
    core = stripped.rstrip(".!?。！？")
    whole = _phrase_lookup(core, source)
    if whole:
        return _render(whole, target, core) + stripped[len(core):]
    segs = _segments_unspaced(text, source) if source in _NO_SPACE_LANGS else _segments_spaced(text, source)
    out = []
    joiner_needed = target not in _NO_SPACE_LANGS
    for kind, value, original in segs:
        piece = _render(value, target, original) if kind == "concept" else value
        if source in _NO_SPACE_LANGS and joiner_needed and out and kind == "concept" \
                and not out[-1].endswith(" ") and re.match(r"\w", piece):
            out.append(" ")
        if target in _NO_SPACE_LANGS and piece.isspace():
            continue
        out.append(piece)
    return "".join(out)
