package io.siteflow.agent.ebpf;

/** The errno values the in-kernel source names, and their words. */
final class Errno {
    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EEXIST = 17;
    static final int EINVAL = 22;
    static final int ENOSPC = 28;
    static final int E2BIG = 7;
    static final int EACCES = 13;
    static final int ENODEV = 19;
    static final int EOPNOTSUPP = 95;

    private Errno() {
    }

    /** {@code "Operation not permitted (EPERM)"}, or {@code "errno 123"} for one not listed. */
    static String describe(int errno) {
        return switch (errno) {
            case EPERM -> "Operation not permitted (EPERM)";
            case ENOENT -> "No such file or directory (ENOENT)";
            case E2BIG -> "Argument list too long (E2BIG)";
            case EACCES -> "Permission denied (EACCES)";
            case EEXIST -> "File exists (EEXIST)";
            case ENODEV -> "No such device (ENODEV)";
            case EINVAL -> "Invalid argument (EINVAL)";
            case ENOSPC -> "No space left on device (ENOSPC)";
            case EOPNOTSUPP -> "Operation not supported (EOPNOTSUPP)";
            default -> "errno " + errno;
        };
    }
}
