"""The README's Python session (every ```pycon block) runs as a doctest."""

import doctest
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def pycon_blocks():
    text = README.read_text(encoding="utf-8")
    return re.findall(r"```pycon\n(.*?)```", text, flags=re.S)


def test_the_readme_has_a_python_session():
    assert pycon_blocks(), "README.md has no ```pycon block"


def test_the_readme_python_session_runs_as_shown():
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(pycon_blocks()):
        test = parser.get_doctest(block, {}, f"README.md pycon block {i + 1}", str(README), 0)
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} README examples failed (output above)"
