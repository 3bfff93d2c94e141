/*
 * The least any process between an MCP client and a stdio server can cost: it starts the server, then moves
 * bytes from its own stdin to the server's stdin and from the server's stdout to its own stdout, on one thread
 * with poll(2), parsing nothing. GatewayComparison measures it as the floor of a gateway in the middle.
 *
 * usage: relay command [args...]
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int write_all(int fd, const char *buf, ssize_t n) {
    while (n > 0) {
        ssize_t w = write(fd, buf, (size_t) n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        buf += w;
        n -= w;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: relay command [args...]\n");
        return 2;
    }
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) {
        perror("pipe");
        return 1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("fork");
        return 1;
    }
    if (pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[0]);
        close(to_child[1]);
        close(from_child[0]);
        close(from_child[1]);
        execvp(argv[1], argv + 1);
        perror("exec");
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    signal(SIGPIPE, SIG_IGN);
    struct pollfd fds[2] = {{0, POLLIN, 0}, {from_child[0], POLLIN, 0}};
    static char buf[65536];
    for (;;) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (fds[0].revents) {
            ssize_t n = read(0, buf, sizeof buf);
            if (n <= 0 || write_all(to_child[1], buf, n) != 0) {
                close(to_child[1]); /* the client is gone: the server sees the end of its stdin */
                fds[0].fd = -1;
            }
        }
        if (fds[1].revents) {
            ssize_t n = read(from_child[0], buf, sizeof buf);
            if (n <= 0 || write_all(1, buf, n) != 0) break;
        }
    }
    int status;
    waitpid(pid, &status, 0);
    return 0;
}
