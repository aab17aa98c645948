package difftest;

import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Copies the class files of the given packages out of this runtime's image ({@code jrt:/})
 * into a folder, for JaCoCo's analysis: {@code java -cp AGENT difftest.ScopeClasses OUT PACKAGE...}.
 * Run by record --coverage on the reference's own runtime, so the bytes are the ones its
 * agent saw. Prints the number of classes copied.
 */
public final class ScopeClasses {
    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        int copied = 0;
        try (DirectoryStream<Path> modules = Files.newDirectoryStream(jrt.getPath("/modules"))) {
            for (Path module : modules) {
                for (int i = 1; i < args.length; i++) {
                    String folder = args[i].replace('.', '/');
                    copied += copy(module.resolve(folder), out.resolve(folder));
                }
            }
        }
        System.out.println(copied);
    }

    private static int copy(Path from, Path to) throws Exception {
        if (!Files.isDirectory(from)) {
            return 0;
        }
        int copied = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(from, "*.class")) {
            for (Path file : files) {
                if (file.getFileName().toString().equals("module-info.class")) {
                    continue;
                }
                Files.createDirectories(to);
                Files.copy(file, to.resolve(file.getFileName().toString()), StandardCopyOption.REPLACE_EXISTING);
                copied++;
            }
        }
        return copied;
    }
}
