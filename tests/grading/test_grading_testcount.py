"""Static test counts (docs/scoring.md "Metrics per task": tests_total N)."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from core.grading.testcount import count_java_tests, count_python_tests


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


SUITE = {
    "conftest.py": """
        import pytest
        def test_in_conftest_is_not_a_test_module(): pass
    """,
    "test_basic.py": """
        import pytest
        from pytest import mark

        def test_one(): pass
        async def test_async(): pass
        def helper_test(): pass
        def testing_prefix_counts(): pass

        @pytest.fixture
        def test_looking_fixture(): return 1

        @pytest.mark.parametrize("a", [1, 2, 3])
        def test_param(a): pass

        @pytest.mark.parametrize("a", [1, 2])
        @mark.parametrize("b", ("x", "y", "z"))
        def test_stacked(a, b): pass

        CASES = [1, 2, 3, 4]
        @pytest.mark.parametrize("a", CASES)
        def test_non_literal(a): pass

        @pytest.mark.parametrize(argnames="a", argvalues=[pytest.param(1, marks=pytest.mark.skip), 2])
        def test_keyword_values(a): pass

        @pytest.mark.timeout(5)
        @pytest.mark.order(1)
        def test_other_markers(): pass

        def test_redefined(): pass
        def test_redefined(): pass
    """,
    "sub/users_test.py": """
        import pytest

        class TestUsers:
            def test_a(self): pass
            def test_b(self): pass
            def not_a_test(self): pass

            class TestNested:
                def test_inner(self): pass

        class TestWithInit:
            def __init__(self): pass
            def test_never_collected(self): pass

        class Helper:
            def test_not_in_a_test_class(self): pass

        @pytest.mark.parametrize("role", ["admin", "user"])
        class TestRoles:
            def test_x(self, role): pass
            @pytest.mark.parametrize("n", [1, 2, 3])
            def test_y(self, role, n): pass

        class TestBase:
            __test__ = False
            def test_shared(self): pass

        class TestChild(TestBase):
            __test__ = True
            def test_own(self): pass
    """,
    "sub/test_module_mark.py": """
        import pytest
        pytestmark = [pytest.mark.timeout(10), pytest.mark.parametrize("backend", ["a", "b"])]
        def test_m(backend): pass
    """,
    "test_broken.py": "def test_x(:\n",
    "helpers.py": "def test_helper_module(): pass\n",
    "README.md": "def test_readme(): pass\n",
}

# test_basic: one, async, testing_prefix, param 3, stacked 6, non_literal 1, keyword 2, markers 1, redefined 1 = 17
# users_test: TestUsers 2 + nested 1; TestRoles (1 + 3) * 2 = 8; TestChild own + inherited = 2 -> 13
# test_module_mark: 1 * 2 = 2
EXPECTED = 17 + 13 + 2


def test_python_static_count(tmp_path):
    assert count_python_tests(write(tmp_path / "tests", SUITE)) == EXPECTED


def test_python_static_count_agrees_with_pytest_collection(tmp_path):
    suite = dict(SUITE)
    del suite["test_broken.py"]  # pytest would report a collection error
    tests_dir = write(tmp_path / "tests", suite)
    (tmp_path / "tests" / "pytest.ini").write_text("[pytest]\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:django", "-p", "no:cacheprovider",
         "-c", str(tests_dir / "pytest.ini"), "--rootdir", str(tests_dir), str(tests_dir)],
        capture_output=True, text=True, timeout=60, cwd=tests_dir,
    )
    collected = [line for line in proc.stdout.splitlines() if "::" in line]
    assert count_python_tests(tests_dir) == EXPECTED
    # pytest sees all 4 values of the non-literal parametrize; the static count takes it as 1 (hence N = max of both)
    assert len(collected) == EXPECTED + 3, proc.stdout + proc.stderr


def test_python_files_option_from_ini(tmp_path):
    tests_dir = write(
        tmp_path / "tests",
        {"check_api.py": "def test_a(): pass\ndef test_b(): pass\n", "test_default.py": "def test_c(): pass\n"},
    )
    assert count_python_tests(tests_dir) == 1
    (tmp_path / "pytest.ini").write_text("[pytest]\npython_files = check_*.py\n")  # in the parent: the task root
    assert count_python_tests(tests_dir) == 2
    (tests_dir / "setup.cfg").write_text("[tool:pytest]\npython_files = check_*.py test_*.py\n")
    assert count_python_tests(tests_dir) == 3


def test_missing_directories_count_zero(tmp_path):
    assert count_python_tests(tmp_path / "absent") == 0
    assert count_java_tests(tmp_path / "absent") == 0


JAVA_TEST = '''
package com.example;

import org.junit.jupiter.api.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.*;

@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class ItemApiTest {
    private static final String URL = "http://localhost:8080/api"; // not a comment start inside a string
    private static final String NOTE = "@Test inside a string is not an annotation";

    @BeforeAll
    static void setUp() {}

    @Test
    @Order(1)
    void createsItem() {}

    @Test
    @DisplayName("lists items (@Test in a string does not count)")
    void listsItems() {}

    // @Test
    // void commentedOut() {}

    /*
    @Test
    void blockCommented() {}
    */

    @org.junit.jupiter.api.Test
    void fullyQualified() {}

    @Disabled("flaky")
    @Test
    void disabledStillCounts() {}

    @ParameterizedTest
    @ValueSource(strings = {"a", "b, c", "d"})
    void valueSource(String s) {}

    @ParameterizedTest(name = "{0}")
    @ValueSource(ints = {1, 2, 3, 4})
    void ints(int n) {}

    @ParameterizedTest
    @CsvSource({"1, 2", "3, 4"})
    void csv(int a, int b) {}

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" "})
    void blanks(String s) {}

    @ParameterizedTest
    @CsvSource(textBlock = """
        apple, 1
        banana, 2

        cherry, 3
        """)
    void csvTextBlock(String fruit, int n) {}

    @ParameterizedTest
    @MethodSource("provider")
    void methodSource(String s) {}

    @RepeatedTest(5)
    void repeated() {}

    @RepeatedTest(value = 3, name = "{currentRepetition}")
    void repeatedNamed() {}

    @TestFactory
    Stream<DynamicTest> dynamic() { return Stream.empty(); }

    @Nested
    class Inner {
        @Test
        void inner() {}
    }

    @AfterEach
    void tearDown() {}
}
'''


def test_java_static_count(tmp_path):
    root = write(tmp_path / "src/test/java", {"com/example/ItemApiTest.java": JAVA_TEST,
                                               "com/example/Util.java": "class Util { void x() {} }"})
    # 1+1+1+1 plain, 3 + 4 + 2 + (2+1) + 3 + 1 parameterized, 5 + 3 repeated, 1 factory, 1 nested
    assert count_java_tests(root) == 4 + 3 + 4 + 2 + 3 + 3 + 1 + 5 + 3 + 1 + 1
