// The board's filter form keeps the language tab the visitor is on (the tabs change ?language= in place).
(function () {
  const form = document.querySelector("#board-filters form");
  if (!form) return;
  form.addEventListener("submit", function () {
    const language = new URL(window.location).searchParams.get("language");
    if (language) { form.elements.language.value = language; }
  });
})();
