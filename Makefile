# The two commands of the README:
#   make book   set everything up, build both books into _build/site/, say where to open it
#   make test   set everything up, build the site, run every test (lib, notebooks, site)
.PHONY: book test setup notebooks clean

PY := .venv/bin/python

book:
	./scripts/setup.sh
	$(PY) tools/build_book.py
	@echo
	@echo "The book is built. Open $(CURDIR)/_build/site/index.html"
	@echo "(or serve it: $(PY) -m http.server -d _build/site 8000, then http://127.0.0.1:8000)"

test:
	./scripts/setup.sh --browser
	$(PY) tools/build_book.py
	$(PY) -m pytest -n 2 --dist loadfile tests --nbval-lax chapters/zh chapters/en

notebooks:
	$(PY) tools/nbgen.py

clean:
	rm -rf _build test-output
