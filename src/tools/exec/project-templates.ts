/** The project kinds create_project scaffolds. */
export type ProjectType = 'java' | 'python' | 'node';

export type ScaffoldFile = { path: string; content: string };

/** Files of a small runnable project with one passing test; paths relative to the project folder. */
export function scaffoldFiles(name: string, type: ProjectType): ScaffoldFile[] {
  switch (type) {
    case 'node':
      return nodeFiles(name);
    case 'python':
      return pythonFiles(name);
    case 'java':
      return javaFiles(name);
  }
}

/** How to run the tests of a freshly created project. */
export function testCommand(type: ProjectType): string {
  return { node: 'npm test', python: 'python3 -m unittest', java: 'mvn test' }[type];
}

function nodeFiles(name: string): ScaffoldFile[] {
  const pkg = {
    name: name
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-')
      .replace(/^[._]+/, ''),
    version: '0.1.0',
    private: true,
    type: 'module',
    main: 'src/index.js',
    scripts: { start: 'node src/index.js', test: 'node --test' },
  };
  return [
    { path: 'package.json', content: `${JSON.stringify(pkg, null, 2)}\n` },
    {
      path: 'src/index.js',
      content: `import { argv } from 'node:process';
import { pathToFileURL } from 'node:url';

/** Returns a greeting for \`who\`. */
export function greet(who = 'world') {
  return \`Hello, \${who}!\`;
}

if (argv[1] && import.meta.url === pathToFileURL(argv[1]).href) {
  console.log(greet(argv[2]));
}
`,
    },
    {
      path: 'test/index.test.js',
      content: `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greet } from '../src/index.js';

test('greet says hello', () => {
  assert.equal(greet('you'), 'Hello, you!');
  assert.equal(greet(), 'Hello, world!');
});
`,
    },
    { path: '.gitignore', content: 'node_modules/\n' },
  ];
}

function pythonFiles(name: string): ScaffoldFile[] {
  const module = moduleName(name);
  return [
    {
      path: 'pyproject.toml',
      content: `[project]
name = "${name.toLowerCase()}"
version = "0.1.0"
requires-python = ">=3.8"

[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[tool.setuptools]
packages = ["${module}"]
`,
    },
    {
      path: `${module}/__init__.py`,
      content: `"""${name}."""


def greet(who: str = "world") -> str:
    """Return a greeting for who."""
    return f"Hello, {who}!"
`,
    },
    {
      path: `${module}/__main__.py`,
      content: `import sys\n\nfrom . import greet\n\nprint(greet(*sys.argv[1:2]))\n`,
    },
    { path: 'tests/__init__.py', content: '' },
    {
      path: `tests/test_${module}.py`,
      content: `import unittest

from ${module} import greet


class GreetTest(unittest.TestCase):
    def test_greet(self):
        self.assertEqual(greet("you"), "Hello, you!")
        self.assertEqual(greet(), "Hello, world!")


if __name__ == "__main__":
    unittest.main()
`,
    },
    { path: '.gitignore', content: '__pycache__/\n*.egg-info/\n.venv/\n' },
  ];
}

function javaFiles(name: string): ScaffoldFile[] {
  const artifact = name.toLowerCase().replace(/[^a-z0-9._-]/g, '-');
  return [
    {
      path: 'pom.xml',
      content: `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>${artifact}</artifactId>
  <version>0.1.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.junit.jupiter</groupId>
      <artifactId>junit-jupiter</artifactId>
      <version>5.10.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
      </plugin>
    </plugins>
  </build>
</project>
`,
    },
    {
      path: 'src/main/java/App.java',
      content: `public class App {
    /** Returns a greeting for who. */
    public static String greet(String who) {
        return "Hello, " + who + "!";
    }

    public static void main(String[] args) {
        System.out.println(greet(args.length > 0 ? args[0] : "world"));
    }
}
`,
    },
    {
      path: 'src/test/java/AppTest.java',
      content: `import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AppTest {
    @Test
    void greetSaysHello() {
        assertEquals("Hello, you!", App.greet("you"));
    }
}
`,
    },
    { path: '.gitignore', content: 'target/\n' },
  ];
}

/** A Python package name from a folder name: lower case, `_` for anything else, never starting with a digit. */
export function moduleName(name: string): string {
  const base = name.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return /^[0-9]/.test(base) ? `p_${base}` : base;
}
