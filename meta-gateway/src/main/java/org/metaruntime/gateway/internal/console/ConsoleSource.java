package org.metaruntime.gateway.internal.console;

import java.util.List;
import org.metaruntime.gateway.internal.serve.ServedView;
import org.metaruntime.gateway.spi.Principal;

/** What the console reads of a running gateway, as one principal may see it ({@link ServedView} in a gateway). */
interface ConsoleSource {

    /** The pods {@code principal} sees, in name order. */
    List<ServedView.PodView> pods(Principal principal);

    /** The tools {@code principal} may call, in outward name order. */
    List<ServedView.ToolView> tools(Principal principal);

    /** Whether {@code principal} may see the calls of the tool {@code outward} of {@code pod}. */
    boolean seesCall(Principal principal, String outward, String pod);

    /** The profiles of {@code principal}. */
    List<String> profilesOf(Principal principal);

    /** Whether {@code principal} is an admin. */
    boolean admin(Principal principal);

    /** {@code view} as a source. */
    static ConsoleSource of(ServedView view) {
        return new ConsoleSource() {
            @Override
            public List<ServedView.PodView> pods(Principal principal) {
                return view.pods(principal);
            }

            @Override
            public List<ServedView.ToolView> tools(Principal principal) {
                return view.tools(principal);
            }

            @Override
            public boolean seesCall(Principal principal, String outward, String pod) {
                return view.seesCall(principal, outward, pod);
            }

            @Override
            public List<String> profilesOf(Principal principal) {
                return view.profilesOf(principal);
            }

            @Override
            public boolean admin(Principal principal) {
                return view.admin(principal);
            }
        };
    }
}
